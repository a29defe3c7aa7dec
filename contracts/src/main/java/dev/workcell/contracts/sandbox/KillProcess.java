package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** TERM (KILL after a grace), or KILL at once with {@code force}; every process it started goes too. */
public record KillProcess(SandboxRef sandbox, String processId, boolean force) {}
