package dev.workcell.task.conversation;

import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskView;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Entity → contract record; the state and provider kind columns hold the enums' wire names. */
public final class TaskMapper {

  private TaskMapper() {}

  public static TaskView toView(TaskEntity t) {
    boolean unread = t.lastFinishedAt != null && (t.seenAt == null || t.lastFinishedAt.isAfter(t.seenAt));
    return new TaskView(t.id.toString(), t.ownerId.toString(), t.title, ProviderKind.fromWire(t.providerKind), t.providerId, t.model,
        t.policyId == null ? null : t.policyId.toString(), t.networkEnabled, t.sandboxName, t.volumeName, TaskState.fromWire(t.state),
        t.approvalsEnabled, t.decommissioning, t.decommissionError, unread, instant(t.seenAt),
        instant(t.lastFinishedAt), instant(t.createdAt), instant(t.updatedAt), t.workspaceFolder);
  }

  static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }
}
