package dev.workcell.contracts.sandbox;

import java.util.List;

/** Search hits in walk order; {@code truncated} when the hit cap stopped the search. */
public record SearchResult(List<SearchHit> hits, boolean truncated) {}
