package dev.workcell.contracts.sandbox;

/** One matching line (clipped to 500 characters). */
public record SearchHit(String path, int line, String text) {}
