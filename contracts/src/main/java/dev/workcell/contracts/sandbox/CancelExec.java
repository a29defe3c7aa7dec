package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Stops the command started with this {@link RunCommand#execId()} in this sandbox. */
public record CancelExec(SandboxRef sandbox, String execId) {}
