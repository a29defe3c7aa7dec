package dev.workcell.contracts.task;

import java.time.Instant;

/**
 * The preview state of a task. {@code state}: stopped, starting or ready. {@code generation} grows
 * with every start, so a signed preview URL of an older generation is revoked.
 */
public record PreviewView(String taskId, String state, long generation, Integer hostPort, String command, Instant updatedAt) {}
