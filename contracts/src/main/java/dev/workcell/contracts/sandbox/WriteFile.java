package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.Bulk;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Replaces a file atomically. With {@code expectedVersion} the write fails with {@code conflict} when
 * the file changed (or vanished) since it was read; without it the write is unconditional.
 */
public record WriteFile(SandboxRef sandbox, String path, @Bulk String content, String expectedVersion, boolean createParents) {}
