package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Reads a UTF-8 text file of at most 2,000,000 bytes. */
public record ReadFile(SandboxRef sandbox, String path) {}
