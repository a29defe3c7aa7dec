package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Writes text (already escape-decoded, ≤ 65,536 bytes) to a running process's stdin; {@code invalid_argument} once it ended. */
public record ProcessInput(SandboxRef sandbox, String processId, String input) {}
