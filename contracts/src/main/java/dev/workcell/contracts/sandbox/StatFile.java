package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Describes one entry itself (a final symlink is reported, not followed). */
public record StatFile(SandboxRef sandbox, String path) {}
