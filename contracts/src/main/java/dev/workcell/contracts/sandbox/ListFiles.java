package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Lists one workspace directory ({@code path} relative to /workspace; empty for the root). */
public record ListFiles(SandboxRef sandbox, String path) {}
