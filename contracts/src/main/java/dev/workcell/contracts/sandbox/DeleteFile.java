package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Deletes a file, link or (with {@code recursive}) a directory tree; links are never followed. */
public record DeleteFile(SandboxRef sandbox, String path, boolean recursive) {}
