package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Creates a directory; {@code parents} also creates missing ancestors and accepts an existing one. */
public record MakeDirectory(SandboxRef sandbox, String path, boolean parents) {}
