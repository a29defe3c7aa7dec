package dev.workcell.contracts.sandbox;

import java.util.List;

/** Matches in walk order ({@link SearchHit}: path relative to the root, 1-based line, clipped text). */
public record GrepResult(List<SearchHit> matches, boolean truncated) {}
