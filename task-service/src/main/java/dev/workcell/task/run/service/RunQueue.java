package dev.workcell.task.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.messaging.JetStreamPublisher;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.conversation.repository.RunRepository;
import dev.workcell.task.support.ReactiveContext;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StreamState;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Hands a committed run to agent-runner: a {@link RunRef} on the JetStream work queue, which
 * survives a restart of either side. A run that cannot be queued is failed at once with the
 * reason, rather than left preparing with nobody to drive it.
 */
@ApplicationScoped
public class RunQueue {

  /** Reading more queued requests than this is not attempted: the queue then counts as unreadable. */
  private static final long MAX_QUEUE_READ = 20_000;
  private static final int NO_MESSAGE_FOUND = 10037;

  private final JetStreamPublisher publisher;
  private final TaskSettings settings;
  private final RunRepository runs;
  private final TaskRepository tasks;
  private final NatsConnection nats;
  private final MessageCodec codec;

  public RunQueue(JetStreamPublisher publisher, TaskSettings settings, RunRepository runs, TaskRepository tasks, NatsConnection nats,
      MessageCodec codec) {
    this.publisher = publisher;
    this.settings = settings;
    this.runs = runs;
    this.tasks = tasks;
    this.nats = nats;
    this.codec = codec;
  }

  /**
   * The ids of runs whose request still waits on the work queue (taken-but-unacked ones included);
   * empty when the queue cannot be read, so nothing is judged lost on a guess.
   */
  public Uni<Optional<Set<String>>> queuedRunIds() {
    Uni<Optional<Set<String>>> read = Uni.createFrom().item(this::readQueue)
        .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
        .onFailure().invoke(e -> Log.warnf("run queue not readable: %s", e.getMessage()))
        .onFailure().recoverWithItem(Optional.empty());
    return ReactiveContext.backOnContext(read);
  }

  private Optional<Set<String>> readQueue() {
    try {
      JetStreamManagement management = nats.connection().jetStreamManagement();
      StreamState state = management.getStreamInfo(Streams.RUN_REQUESTS.name()).getStreamState();
      if (state.getMsgCount() > MAX_QUEUE_READ) {
        return Optional.empty();
      }
      Set<String> queued = new HashSet<>();
      for (long seq = state.getFirstSequence(); state.getMsgCount() > 0 && seq <= state.getLastSequence(); seq++) {
        try {
          MessageInfo message = management.getMessage(Streams.RUN_REQUESTS.name(), seq);
          if (Subjects.RUN_REQUESTS.pattern().equals(message.getSubject())) {
            queued.add(codec.decode(message.getData(), RunRef.class).runId());
          }
        } catch (JetStreamApiException e) {
          if (e.getApiErrorCode() != NO_MESSAGE_FOUND) {
            throw e;
          }
        } catch (WorkcellException e) {
          // a request nobody can read is no run's request
        }
      }
      return Optional.of(queued);
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** Call after the run's transaction committed; fails service_unavailable when it could not be queued. */
  public Uni<Void> enqueue(Actor actor, String taskId, String runId) {
    return ReactiveContext.backOnContext(publisher.publish(Subjects.RUN_REQUESTS, new RunRef(taskId, runId), actor))
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
