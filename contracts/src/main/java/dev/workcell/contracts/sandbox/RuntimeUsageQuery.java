package dev.workcell.contracts.sandbox;

/**
 * Asks for runtime caps and current use ({@link SandboxSubjects#RUNTIME_USAGE}), with the use of
 * {@code ownerId}. A user actor always gets its own; admins and services may name anyone.
 */
public record RuntimeUsageQuery(String ownerId) {}
