package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Ends {@code holder}'s hold (or its wait in line) on a task's runtime slot
 * ({@link SandboxSubjects#LEASE_RELEASE}); idempotent. A sandbox left with no holder stops after
 * the release grace, volume kept.
 */
public record ReleaseRuntime(SandboxRef sandbox, String holder) {}
