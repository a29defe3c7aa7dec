package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Reads raw bytes: {@code offset} ≥ 0 (null: 0), {@code limit} 1..2,000,000 (null: 2,000,000). */
public record ReadBytes(SandboxRef sandbox, String path, Long offset, Integer limit) {}
