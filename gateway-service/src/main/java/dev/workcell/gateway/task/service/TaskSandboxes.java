package dev.workcell.gateway.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.messaging.NatsRequester;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Names a task's sandbox for sandbox-service. task-service answers the task only to its owner
 * (not_found otherwise), so the owner id passed on is one task-service vouched for.
 */
@ApplicationScoped
public class TaskSandboxes {

  private final NatsRequester nats;
  private final CallerRequests caller;
  private final OwnershipChecks checks;

  public TaskSandboxes(NatsRequester nats, CallerRequests caller, OwnershipChecks checks) {
    this.nats = nats;
    this.caller = caller;
    this.checks = checks;
  }

  /** The checked caller and their task's sandbox. Only then is sandbox-service asked anything. */
  public record CallerSandbox(Actor actor, SandboxRef ref) {}

  /**
   * The task read is the account check (task-service checks the caller in the same handler, see
   * {@link CallerRequests#checkedByTaskService}); the actor it succeeded for is the one to pass on.
   * A recent granting answer for the same claimed caller and task is reused ({@link OwnershipChecks}).
   */
  public Uni<CallerSandbox> ofCaller(String taskId) {
    Uni<CallerSandbox> check = caller.checkedByTaskService(actor -> sandboxOf(actor, taskId).map(ref -> new CallerSandbox(actor, ref)));
    return caller.claimed()
        .map(claimed -> checks.reuseOr(new OwnershipChecks.Key(claimed.accountId(), claimed.role(), taskId), check))
        .orElse(check);
  }

  public Uni<SandboxRef> sandboxOf(Actor actor, String taskId) {
    return nats.request(TaskSubjects.SANDBOX, new TaskRef(taskId), actor);
  }
}
