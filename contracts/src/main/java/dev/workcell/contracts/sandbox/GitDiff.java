package dev.workcell.contracts.sandbox;

/** Unified diff of the worktree against HEAD (untracked files included as additions), capped like command output. */
public record GitDiff(String diff, boolean truncated) {}
