package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Processes of one sandbox: running ones and those finished within the last 300 s. */
public record ListProcesses(SandboxRef sandbox) {}
