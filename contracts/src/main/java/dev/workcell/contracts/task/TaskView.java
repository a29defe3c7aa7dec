package dev.workcell.contracts.task;

import java.time.Instant;

/**
 * A task as callers see it; its state and provider kind travel as their lowercase wire names. {@code unread}: a run reached a final state after the owner's seen marker.
 * {@code decommissionError} tells why a deletion stopped half-way (the record stays for a retry).
 */
public record TaskView(
    String id,
    String ownerId,
    String title,
    ProviderKind providerKind,
    String providerId,
    String model,
    String policyId,
    boolean networkEnabled,
    String sandboxName,
    String volumeName,
    TaskState state,
    boolean approvalsEnabled,
    boolean decommissioning,
    String decommissionError,
    boolean unread,
    Instant seenAt,
    Instant lastFinishedAt,
    Instant createdAt,
    Instant updatedAt) {}
