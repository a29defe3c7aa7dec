package dev.workcell.gateway.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.task.service.TaskSandboxes;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.JetStreamApiException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;

/**
 * Decides whether the caller may watch a run: task-service must answer the task to this actor
 * (not_found otherwise), and the run must be its latest run or have events on the task's subject.
 */
@ApplicationScoped
public class RunAccess {

  private static final int NO_MESSAGE_FOUND = 10037;

  private final TaskSandboxes tasks;
  private final NatsConnection nats;

  public RunAccess(TaskSandboxes tasks, NatsConnection nats) {
    this.tasks = tasks;
    this.nats = nats;
  }

  public Uni<RunSnapshot> snapshot(Actor actor, String taskId, String runId, long after) {
    return tasks.ownedTask(actor, taskId).chain(detail -> {
      if (detail.latestRun() != null && runId.equals(detail.latestRun().id())) {
        return Uni.createFrom().item(new RunSnapshot(detail.task(), detail.latestRun(), runId, after));
      }
      // The subject carries the task id, so events found there belong to this (owned) task.
      return Uni.createFrom().item(() -> hasEvents(taskId, runId)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
          .map(found -> {
            if (!found) {
              throw new WorkcellException(ErrorCode.NOT_FOUND, "no such run");
            }
            return new RunSnapshot(detail.task(), null, runId, after);
          });
    });
  }

  private boolean hasEvents(String taskId, String runId) {
    try {
      nats.connection().jetStreamManagement().getLastMessage(Streams.RUN_EVENTS.name(), Subjects.runEvents(taskId, runId));
      return true;
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == NO_MESSAGE_FOUND || e.getErrorCode() == 404) {
        return false;
      }
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "run events unavailable", e);
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "run events unavailable", e);
    }
  }
}
