package dev.workcell.contracts.task;

import java.time.Instant;

/**
 * A task as callers see it; its state and provider kind travel as their lowercase wire names. {@code unread}: a run reached a final state after the owner's seen marker.
 * {@code decommissionError} tells why a deletion stopped half-way (the record stays for a retry).
 * {@code workspaceFolder}: the real path of the host folder bound as {@code /workspace} (decision 0023),
 * null for a task with a volume of its own.
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
    Instant updatedAt,
    String workspaceFolder) {

  /** A task with a workspace volume of its own. */
  public TaskView(String id, String ownerId, String title, ProviderKind providerKind, String providerId, String model,
      String policyId, boolean networkEnabled, String sandboxName, String volumeName, TaskState state, boolean approvalsEnabled,
      boolean decommissioning, String decommissionError, boolean unread, Instant seenAt, Instant lastFinishedAt,
      Instant createdAt, Instant updatedAt) {
    this(id, ownerId, title, providerKind, providerId, model, policyId, networkEnabled, sandboxName, volumeName, state,
        approvalsEnabled, decommissioning, decommissionError, unread, seenAt, lastFinishedAt, createdAt, updatedAt, null);
  }
}
