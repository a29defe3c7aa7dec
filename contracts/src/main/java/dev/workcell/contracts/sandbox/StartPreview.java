package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Starts the task's preview: {@code command} (run in /workspace, must listen on 0.0.0.0 and the
 * preview port), or null to detect a dev script or a static index.html.
 */
public record StartPreview(SandboxRef sandbox, String command) {}
