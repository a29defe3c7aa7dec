package dev.workcell.task.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.messaging.JetStreamPublisher;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.run.repository.RunRepository;
import dev.workcell.task.support.ReactiveContext;
import dev.workcell.task.task.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * Hands a committed run to agent-runner: a {@link RunRef} on the JetStream work queue, which
 * survives a restart of either side. A run that cannot be queued is failed at once with the
 * reason, rather than left preparing with nobody to drive it.
 */
@ApplicationScoped
public class RunQueue {

  private final JetStreamPublisher publisher;
  private final TaskSettings settings;
  private final RunRepository runs;
  private final TaskRepository tasks;

  public RunQueue(JetStreamPublisher publisher, TaskSettings settings, RunRepository runs, TaskRepository tasks) {
    this.publisher = publisher;
    this.settings = settings;
    this.runs = runs;
    this.tasks = tasks;
  }

  /** Call after the run's transaction committed; fails service_unavailable when it could not be queued. */
  public Uni<Void> enqueue(Actor actor, String taskId, String runId) {
    return ReactiveContext.backOnContext(publisher.publish(settings.runRequestsSubject(), new RunRef(taskId, runId), actor))
        .replaceWithVoid()
        .onFailure().call(failure -> failRun(UUID.fromString(taskId), UUID.fromString(runId), failure))
        .onFailure().transform(failure -> new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE,
            "the run could not be queued for a runner: " + failure.getMessage(), failure));
  }

  private Uni<Void> failRun(UUID taskId, UUID runId, Throwable failure) {
    OffsetDateTime now = OffsetDateTime.now();
    String reason = "the run could not be queued for a runner: " + failure.getMessage();
    String stored = reason.length() > 2000 ? reason.substring(0, 2000) : reason;
    return Panache.withTransaction(() -> runs.move(runId, "('preparing')", RunState.FAILED.wire(), stored, now, true)
        .chain(moved -> moved == 0 ? Uni.createFrom().item(0)
            : tasks.update("state = 'failed', updatedAt = ?1, lastFinishedAt = ?1 where id = ?2", now, taskId)))
        .replaceWithVoid();
  }
}
