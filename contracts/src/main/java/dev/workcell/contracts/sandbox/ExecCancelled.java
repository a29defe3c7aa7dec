package dev.workcell.contracts.sandbox;

/** {@code cancelled} is false when no command with that id was running. */
public record ExecCancelled(String execId, boolean cancelled) {}
