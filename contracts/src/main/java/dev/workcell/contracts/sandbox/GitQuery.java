package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Git state of the repository at the sandbox root; {@code path} narrows a diff to one file or directory (null: all). */
public record GitQuery(SandboxRef sandbox, String path) {}
