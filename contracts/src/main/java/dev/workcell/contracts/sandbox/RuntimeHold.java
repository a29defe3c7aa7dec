package dev.workcell.contracts.sandbox;

/** The answer to a hold or release: whether {@code holder} holds the slot now, and how long it waited in line. */
public record RuntimeHold(String holder, boolean held, long waitedMs) {}
