package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Renames within the workspace; never overwrites ({@code already_exists}). */
public record MoveFile(SandboxRef sandbox, String from, String to) {}
