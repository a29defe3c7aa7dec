package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Takes or renews {@code holder}'s hold on a task's runtime slot ({@link SandboxSubjects#LEASE_HOLD}).
 * A slot stays taken while any holder holds it (or an operation runs); the hold lapses after
 * {@code ttlMs} unless renewed, so a holder that dies never pins a slot. When no slot is free the
 * request waits up to {@code waitMs} (0: answer at once) in line, then fails {@code too_many_runtimes}.
 * Only services may hold (agent-runner for its runs).
 */
public record HoldRuntime(SandboxRef sandbox, String holder, long ttlMs, long waitMs) {}
