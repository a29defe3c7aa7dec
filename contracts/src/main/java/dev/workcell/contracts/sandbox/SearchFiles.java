package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Searches text files beneath {@code path} for a literal {@code query}; at most {@code maxHits} (≤ 100) hits. */
public record SearchFiles(SandboxRef sandbox, String path, String query, Integer maxHits) {}
