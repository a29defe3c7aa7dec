package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Replaces a file atomically with at most 2,000,000 raw bytes (base64 on the wire). */
public record WriteBytes(SandboxRef sandbox, String path, byte[] data, String expectedVersion, boolean createParents) {}
