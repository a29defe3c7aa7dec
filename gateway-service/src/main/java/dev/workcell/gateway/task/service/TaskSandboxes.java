package dev.workcell.gateway.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
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

  public TaskSandboxes(NatsRequester nats) {
    this.nats = nats;
  }

  public Uni<TaskDetail> ownedTask(Actor actor, String taskId) {
    return nats.request(TaskSubjects.GET, new TaskRef(taskId), TaskDetail.class, actor);
  }

  public Uni<SandboxRef> sandboxOf(Actor actor, String taskId) {
    return ownedTask(actor, taskId).map(detail -> new SandboxRef(detail.task().id(), detail.task().ownerId()));
  }
}
