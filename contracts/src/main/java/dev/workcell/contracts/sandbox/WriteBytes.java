package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.Bulk;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Replaces a file atomically with at most 2,000,000 raw bytes. */
public record WriteBytes(SandboxRef sandbox, String path, @Bulk byte[] data, String expectedVersion, boolean createParents) {}
