package dev.workcell.sandbox.runtime;

/** Where the runtime published a sandbox's preview port. */
public record PreviewEndpoint(String hostAddress, int hostPort) {}
