package dev.workcell.task.run.service;

import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.contracts.task.RunState;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.conversation.RunEntity;
import dev.workcell.task.run.messaging.RunControlPublisher;
import dev.workcell.task.run.messaging.RunEndEvents;
import dev.workcell.task.conversation.repository.RunRepository;
import dev.workcell.task.sandbox.SandboxRuntime;
import dev.workcell.task.support.ReactiveContext;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Ends runs nobody drives any more: an active run whose runner lease expired (the runner crashed or
 * was killed) and a preparing run whose request left the work queue untaken. Each is failed with a
 * {@code runner_lost} reason in a conditional update (a runner renewing meanwhile wins; of several
 * replicas only one moves it), its preview state is cleared, then sandbox-service is asked to stop
 * the task's sandbox (the volume stays) and the final {@code run_state} + {@code done} events are
 * published so live streams end. Runs at start (RunRecovery) and every lease-sweep interval.
 */
@ApplicationScoped
public class RunSweeper {

  public static final String RUNNER_LOST = "runner_lost: the agent-runner driving the run stopped renewing its lease";
  public static final String REQUEST_LOST = "runner_lost: the run request is no longer queued and no runner took the run";

  private final RunRepository runs;
  private final TaskRepository tasks;
  private final RunQueue queue;
  private final SandboxRuntime sandboxes;
  private final RunEndEvents endEvents;
  private final RunControlPublisher control;
  private final TaskSettings settings;
  private final ReactiveContext context;
  private final AtomicBoolean sweeping = new AtomicBoolean();
  private volatile long timer = -1;

  public RunSweeper(RunRepository runs, TaskRepository tasks, RunQueue queue, SandboxRuntime sandboxes, RunEndEvents endEvents,
      RunControlPublisher control, TaskSettings settings, ReactiveContext context) {
    this.runs = runs;
    this.tasks = tasks;
    this.queue = queue;
    this.sandboxes = sandboxes;
    this.endEvents = endEvents;
    this.control = control;
    this.settings = settings;
    this.context = context;
  }

  /** What one sweep ended. */
  public record Swept(int runnerLost, int requestLost) {
    public int total() {
      return runnerLost + requestLost;
    }
  }

  void schedule(@Observes StartupEvent event, Vertx vertx) {
    long interval = settings.leaseSweepInterval().toMillis();
    if (interval > 0) {
      timer = vertx.setPeriodic(interval, interval, id -> sweepInBackground());
    }
  }

  void stop(@Observes ShutdownEvent event, Vertx vertx) {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }

  private void sweepInBackground() {
    if (!sweeping.compareAndSet(false, true)) {
      return;
    }
    sweep().onTermination().invoke(() -> sweeping.set(false)).subscribe().with(
        swept -> {
          if (swept.total() > 0) {
            Log.infof("lease sweep: %d runs lost their runner, %d requests were lost", swept.runnerLost(), swept.requestLost());
          }
        },
        failure -> Log.warnf("lease sweep failed: %s", failure.getMessage()));
  }

  /** One sweep, on a fresh safe context. */
  public Uni<Swept> sweep() {
    return context.run(() -> {
      OffsetDateTime now = OffsetDateTime.now();
      return Panache.withSession(() -> runs.leaseExpired(now))
          .chain(expired -> endEach(expired, run -> runs.failExpired(run.id, RUNNER_LOST, OffsetDateTime.now()), RUNNER_LOST))
          .chain(lost -> Panache.withSession(() -> runs.untakenSince(now.minus(settings.untakenGrace())))
              .chain(untaken -> untaken.isEmpty() ? Uni.createFrom().item(0) : queue.queuedRunIds().chain(queued -> {
                if (queued.isEmpty()) {
                  return Uni.createFrom().item(0); // the queue cannot be read: judge nothing on a guess
                }
                Set<String> waiting = queued.get();
                List<RunEntity> gone = untaken.stream().filter(run -> !waiting.contains(run.id.toString())).toList();
                return endEach(gone, run -> runs.failUntaken(run.id, REQUEST_LOST, OffsetDateTime.now()), REQUEST_LOST);
              }))
              .map(requests -> new Swept(lost, requests)));
    });
  }

  private Uni<Integer> endEach(List<RunEntity> candidates, Function<RunEntity, Uni<Integer>> fail, String reason) {
    if (candidates.isEmpty()) {
      return Uni.createFrom().item(0);
    }
    return Multi.createFrom().iterable(candidates)
        .onItem().transformToUniAndConcatenate(run -> end(run, fail, reason))
        .filter(Optional::isPresent)
        .collect().asList()
        .map(List::size);
  }

  /** Fails one run if it still qualifies, then stops its sandbox and ends its live stream. */
  private Uni<Optional<UUID>> end(RunEntity candidate, Function<RunEntity, Uni<Integer>> fail, String reason) {
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> fail.apply(candidate).chain(moved -> moved == 0
            ? Uni.createFrom().item(Optional.<UUID>empty())
            : tasks.update("state = 'failed', updatedAt = ?1, lastFinishedAt = ?1 where id = ?2 and state in ('preparing', 'running')",
                    now, candidate.taskId)
                .chain(() -> Panache.getSession().chain(session -> session
                    .createMutationQuery("delete from PreviewStateEntity p where p.taskId = :task")
                    .setParameter("task", candidate.taskId).executeUpdate()))
                .chain(() -> tasks.findById(candidate.taskId))
                .map(task -> Optional.ofNullable(task).map(t -> t.ownerId))))
        .call(owner -> owner.isEmpty() ? Uni.createFrom().voidItem() : afterEnd(candidate, owner.get(), reason))
        .onFailure().invoke(e -> Log.warnf("run %s: not ended by the sweep: %s", candidate.id, e.getMessage()))
        .onFailure().recoverWithItem(Optional.empty());
  }

  private Uni<Void> afterEnd(RunEntity run, UUID ownerId, String reason) {
    Log.infof("run %s of task %s failed: %s", run.id, run.taskId, reason);
    control.push(run.taskId.toString(), run.id.toString(), RunControlApi.ENDED, RunState.FAILED);
    // Live streams end first; the stop may take a while (the volume and its files stay).
    return endEvents.publish(run.taskId.toString(), run.id.toString(), RunState.FAILED.wire(), reason)
        .chain(() -> sandboxes.stop(run.taskId, ownerId))
        .onFailure().invoke(e -> Log.warnf("task %s: sandbox not stopped after its runner was lost: %s", run.taskId, e.getMessage()))
        .onFailure().recoverWithNull();
  }
}
