package dev.workcell.contracts.task;

import java.time.Instant;

/** One run: its state, the route it was started with (never switched), why it ended, its usage. */
public record RunView(
    String id,
    String taskId,
    RunState state,
    ProviderKind providerKind,
    String providerId,
    String model,
    String reason,
    long inputTokens,
    long outputTokens,
    int rounds,
    int toolCalls,
    Instant createdAt,
    Instant startedAt,
    Instant finishedAt) {}
