package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Output entries from {@code offset} (entry index, ≥ 0), or only the last {@code tail}; waits up to
 * {@code waitMs} (0..300,000) for the process to finish, answering early when it does.
 */
public record PollProcess(SandboxRef sandbox, String processId, long offset, Integer tail, Long waitMs) {}
