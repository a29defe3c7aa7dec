package dev.workcell.contracts.task;

import java.time.Instant;

/**
 * One tool call of a run for the Activity view. {@code status}: running, ok, error or denied.
 * Output is stored up to {@link dev.workcell.contracts.Limits#STORED_TOOL_OUTPUT_CHARS} characters
 * plus a marker; {@code outputTruncated} says the stored text is not all the tool produced.
 */
public record ToolActivityView(
    long id,
    String taskId,
    String runId,
    String toolCallId,
    String toolName,
    String arguments,
    String status,
    String output,
    boolean outputTruncated,
    Instant startedAt,
    Instant finishedAt) {}
