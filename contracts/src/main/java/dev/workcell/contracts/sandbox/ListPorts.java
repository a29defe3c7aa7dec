package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** The TCP ports listening inside a home sandbox (Open Terminal's {@code GET /ports}). */
public record ListPorts(SandboxRef sandbox) {}
