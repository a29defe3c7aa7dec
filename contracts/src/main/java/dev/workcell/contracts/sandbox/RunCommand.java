package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Runs a shell command in /workspace as uid 1000. {@code timeoutSec} is 1..600 (null: the
 * deployment's WORK_COMMAND_TIMEOUT_MS); every process the command leaves behind is killed when it ends.
 */
public record RunCommand(SandboxRef sandbox, String command, Integer timeoutSec) {}
