package dev.workcell.gateway.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.TaskApi.GetRun;
import dev.workcell.contracts.task.TaskApi.RunDetail;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Decides whether the caller may watch a run: task-service answers the run (any of the task's
 * runs, not only the latest) only to the task's owner, and not_found otherwise.
 */
@ApplicationScoped
public class RunAccess {

  private final NatsRequester nats;

  public RunAccess(NatsRequester nats) {
    this.nats = nats;
  }

  public Uni<RunSnapshot> snapshot(Actor actor, String taskId, String runId, long after) {
    return nats.request(TaskSubjects.RUN_GET, new GetRun(taskId, runId), actor)
        .map(detail -> RunSnapshot.of(detail, after));
  }
}
