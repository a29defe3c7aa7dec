package dev.workcell.contracts.ping;

/** A liveness probe over NATS; {@code from} names the caller for logs. */
public record Ping(String from) {}
