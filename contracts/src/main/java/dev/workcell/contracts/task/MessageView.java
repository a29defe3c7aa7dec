package dev.workcell.contracts.task;

import java.time.Instant;
import java.util.List;

/**
 * One conversation message. {@code id} is the paging cursor (monotonic per database).
 * {@code sentDuringRun}: posted while a run was active; {@code delivered}: handed to that run's model.
 * {@code toolCallId} links a tool result to the assistant {@link ToolCall} it answers.
 */
public record MessageView(
    long id,
    String taskId,
    String runId,
    MessageRole role,
    String content,
    String toolCallId,
    List<ToolCall> toolCalls,
    boolean sentDuringRun,
    boolean delivered,
    boolean truncated,
    Instant createdAt) {}
