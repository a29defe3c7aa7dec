package dev.workcell.task.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.TaskApi.TaskDeleted;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects.AccessNarrowed;
import dev.workcell.task.access.messaging.AccessNarrowedPublisher;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.audit.service.AuditLog;
import dev.workcell.task.run.service.RunService;
import dev.workcell.task.sandbox.SandboxRuntime;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.TaskEntity;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/**
 * Deleting a task, in order: mark it decommissioning (no new mutation starts), cancel its run, ask
 * sandbox-service to remove container and volume, and only then delete the rows (the database
 * cascades runs, messages and the rest). When the runtime clean-up fails the record stays,
 * still decommissioning and with the reason, so an operator can repair the runtime and retry;
 * metadata is never dropped while a sandbox or volume might be left behind.
 */
@ApplicationScoped
public class TaskDeletion {

  private static final String DELETING = "the task is being deleted";

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final RunService runs;
  private final SandboxRuntime sandboxes;
  private final AuditLog audit;
  private final AccessNarrowedPublisher narrowed;

  public TaskDeletion(WorkAccess access, TaskRepository tasks, RunService runs, SandboxRuntime sandboxes,
      AuditLog audit, AccessNarrowedPublisher narrowed) {
    this.access = access;
    this.tasks = tasks;
    this.runs = runs;
    this.sandboxes = sandboxes;
    this.audit = audit;
    this.narrowed = narrowed;
  }

  /** The owner deletes one of their tasks; a retry after a failed clean-up takes the same path. */
  public Uni<TaskDeleted> delete(Actor actor, TaskRef request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    return Panache.withTransaction(() -> access.requireWorkUser(actor)
            .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
            .onItem().ifNull().failWith(Failures::taskNotFound)
            .chain(task -> decommission(actor, task)))
        .call(this::announce)
        .chain(marked -> remove(actor, taskId, marked.ownerId()))
        .replaceWith(new TaskDeleted(taskId.toString()));
  }

  /** A task marked for deletion: its owner (sandbox-service checks it against its labels) and the run that ended, if any. */
  public record Decommissioned(UUID taskId, UUID ownerId, UUID endedRunId) {}

  /** Marks the task decommissioning and cancels its run; runs in the caller's transaction. */
  public Uni<Decommissioned> decommission(Actor actor, TaskEntity task) {
    OffsetDateTime now = OffsetDateTime.now();
    task.decommissioning = true;
    task.decommissionError = null;
    task.updatedAt = now;
    return runs.active(task.id).chain(run -> runs.endActive(task, RunState.CANCELLED, DELETING, now)
        .call(() -> audit.record(actor, "task.delete.start", task.id, Map.of("title", task.title)))
        .replaceWith(new Decommissioned(task.id, task.ownerId, run == null ? null : run.id)));
  }

  /**
   * After the transaction: the gateways stop reusing ownership checks of the task, and the ended run's
   * runner hears it at once and its stream ends, not at the next heartbeat.
   */
  public Uni<Void> announce(Decommissioned marked) {
    narrowed.push(AccessNarrowed.task(marked.ownerId().toString(), marked.taskId().toString()));
    return marked.endedRunId() == null ? Uni.createFrom().voidItem()
        : runs.announceEnded(marked.taskId().toString(), marked.endedRunId().toString(), RunState.CANCELLED, DELETING);
  }

  /** Removes the runtime, then the rows; on a runtime failure records why and passes the error on. */
  public Uni<Void> remove(Actor actor, UUID taskId, UUID ownerId) {
    return sandboxes.delete(taskId, ownerId)
        .onFailure().call(failure -> Panache.withTransaction(() -> recordFailure(actor, taskId, failure)))
        .chain(() -> Panache.withTransaction(() -> tasks.delete("id", taskId)
            .call(deleted -> deleted == 0 ? Uni.createFrom().voidItem()
                : audit.record(actor, "task.delete", taskId, Map.of("ownerId", ownerId.toString())))))
        // again: a check made between the announcement and the rows' removal still found the task
        .invoke(() -> narrowed.push(AccessNarrowed.task(ownerId.toString(), taskId.toString())))
        .replaceWithVoid();
  }

  private Uni<Void> recordFailure(Actor actor, UUID taskId, Throwable failure) {
    String code = failure instanceof WorkcellException e ? e.code().code() : "internal";
    String reason = "runtime clean-up failed (" + code + "): " + failure.getMessage();
    String stored = reason.length() > 2000 ? reason.substring(0, 2000) : reason;
    return tasks.update("decommissionError = ?1, updatedAt = ?2 where id = ?3", stored, OffsetDateTime.now(), taskId)
        .call(() -> audit.record(actor, "task.delete.fail", taskId, Map.of("code", code, "reason", stored)))
        .replaceWithVoid();
  }
}
