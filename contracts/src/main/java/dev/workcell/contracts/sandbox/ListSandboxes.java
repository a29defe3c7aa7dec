package dev.workcell.contracts.sandbox;

/** Lists managed sandboxes. A user actor always sees only its own; admins and services may pass null for all. */
public record ListSandboxes(String ownerId) {}
