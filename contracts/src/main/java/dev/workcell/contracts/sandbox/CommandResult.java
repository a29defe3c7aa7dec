package dev.workcell.contracts.sandbox;

/**
 * A finished command. Output keeps the first and last halves of each stream up to
 * WORK_MAX_OUTPUT_CHARS ({@code truncated} when anything was dropped); {@code timedOut} when the
 * timeout killed it (TERM, then KILL after a grace).
 */
public record CommandResult(int exitCode, String stdout, String stderr, boolean truncated, long durationMs, boolean timedOut) {}
