package dev.workcell.sandbox.runtime;

/**
 * What the engine's host has for sandboxes: its memory (the memory budget is a share of it) and its
 * cores (a sandbox's cpu limit is applied only below them; weights share the rest).
 */
public record HostResources(long memoryBytes, int cpus) {}
