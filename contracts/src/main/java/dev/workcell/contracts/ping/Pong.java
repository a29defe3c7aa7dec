package dev.workcell.contracts.ping;

/** The answer to a ping: which service and which replica answered, and for how long it has run. */
public record Pong(String service, String instanceId, String version, long uptimeMs) {}
