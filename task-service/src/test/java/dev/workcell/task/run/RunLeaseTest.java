package dev.workcell.task.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.task.PreviewApi.SetPreview;
import dev.workcell.contracts.task.RunControlApi.Heartbeat;
import dev.workcell.contracts.task.RunControlApi.LeaseState;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.RunnerApi.ClaimRun;
import dev.workcell.contracts.task.RunnerApi.ClaimedRun;
import dev.workcell.contracts.task.TaskApi.GetRun;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.run.service.RunRecovery;
import dev.workcell.task.run.service.RunSweeper;
import dev.workcell.task.support.RunEventsReader;
import dev.workcell.task.support.RunQueueFixture;
import dev.workcell.task.support.SandboxFixture;
import dev.workcell.task.support.Sql;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 4 with leases: a run stays running while its runner renews the lease, through a restart of
 * task-service; once the runner is gone it becomes failed (runner_lost), its sandbox is stopped and
 * its live stream ends. A queued run no runner took yet survives a restart.
 */
@QuarkusTest
class RunLeaseTest {

  private static final Duration PATIENCE = Duration.ofSeconds(15);

  @Inject
  NatsRequester nats;

  @Inject
  NatsConnection connection;

  @Inject
  MessageCodec codec;

  @Inject
  RunRecovery recovery;

  @Inject
  Sql sql;

  @Inject
  SandboxFixture sandbox;

  @Inject
  RunQueueFixture queue;

  @Inject
  RunEventsReader events;

  @Test
  void theClaimTakesTheLeaseAndAnotherRunnerIsToldToStop() {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated created = running(work, owner, "runner-a");
    String taskId = created.task().id();
    String runId = created.run().id();

    LeaseState mine = beat(work, taskId, runId, "runner-a");
    LeaseState other = beat(work, taskId, runId, "runner-b");

    assertThat(mine.held()).isTrue();
    assertThat(mine.leaseExpiresAt()).isAfter(java.time.Instant.now().plusSeconds(30));
    assertThat(other.held()).isFalse();
    assertThat(other.runState()).isEqualTo(RunState.RUNNING);
    assertThat(beat(work, taskId, runId, "runner-a").held()).isTrue();
    work.call(TaskSubjects.RUN_CANCEL, new TaskRef(taskId), owner);
    LeaseState afterCancel = beat(work, taskId, runId, "runner-a");
    assertThat(afterCancel.held()).isFalse();
    assertThat(afterCancel.runState()).isEqualTo(RunState.NEEDS_INPUT);
  }

  @Test
  void ofTwoRunnersClaimingTheSameRunAtOnceExactlyOneGetsIt() throws Exception {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    for (int attempt = 0; attempt < 10; attempt++) {
      TaskCreated created = work.createTask(owner);
      ClaimRun a = new ClaimRun(created.task().id(), created.run().id(), "runner-a");
      ClaimRun b = new ClaimRun(created.task().id(), created.run().id(), "runner-b");
      var first = nats.request(TaskSubjects.RUNNER_CLAIM, a, WorkClient.RUNNER).subscribeAsCompletionStage();
      var second = nats.request(TaskSubjects.RUNNER_CLAIM, b, WorkClient.RUNNER).subscribeAsCompletionStage();
      List<String> winners = new java.util.ArrayList<>();
      List<ErrorCode> refusals = new java.util.ArrayList<>();
      for (var claim : List.of(java.util.Map.entry("runner-a", first), java.util.Map.entry("runner-b", second))) {
        try {
          ClaimedRun claimed = claim.getValue().get(10, java.util.concurrent.TimeUnit.SECONDS);
          assertThat(claimed.spec().run().state()).isEqualTo(RunState.RUNNING);
          assertThat(claimed.context().messages()).extracting(m -> m.content()).containsExactly("Build a small web page");
          winners.add(claim.getKey());
        } catch (java.util.concurrent.ExecutionException e) {
          refusals.add(((dev.workcell.contracts.error.WorkcellException) e.getCause()).code());
        }
      }
      assertThat(winners).as("attempt %d", attempt).hasSize(1);
      assertThat(refusals).containsExactly(ErrorCode.CONFLICT);
      // The lease is the winner's: the loser's heartbeat is told to stop, the winner's holds.
      String loser = winners.getFirst().equals("runner-a") ? "runner-b" : "runner-a";
      assertThat(beat(work, created.task().id(), created.run().id(), loser).held()).isFalse();
      assertThat(beat(work, created.task().id(), created.run().id(), winners.getFirst()).held()).isTrue();
      assertThat(detail(work, owner, created).task().state()).isEqualTo(TaskState.RUNNING);
    }
  }

  @Test
  void restartKeepsALiveLeaseRunningAndFailsAnExpiredOne() throws Exception {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated live = running(work, owner, "runner-live");
    beat(work, live.task().id(), live.run().id(), "runner-live");
    TaskCreated lost = running(work, owner, "runner-lost");
    work.call(TaskSubjects.PREVIEW_SET, new SetPreview(lost.task().id(), "ready", 40123, "npm run dev"),
        WorkClient.RUNNER);
    TaskCreated queued = work.createTask(owner);
    expire(lost.run().id());

    recovery.recover().await().atMost(PATIENCE);

    assertThat(run(work, owner, live).state()).isEqualTo(RunState.RUNNING);
    assertThat(detail(work, owner, live).task().state()).isEqualTo(TaskState.RUNNING);
    assertThat(run(work, owner, queued).state()).as("queued runs survive a restart").isEqualTo(RunState.PREPARING);
    RunView failed = run(work, owner, lost);
    assertThat(failed.state()).isEqualTo(RunState.FAILED);
    assertThat(failed.reason()).startsWith("runner_lost").isEqualTo(RunSweeper.RUNNER_LOST);
    assertThat(failed.finishedAt()).isNotNull();
    assertThat(detail(work, owner, lost).task().state()).isEqualTo(TaskState.FAILED);
    assertThat(work.call(TaskSubjects.PREVIEW_GET, new TaskRef(lost.task().id()), owner).state())
        .isEqualTo("stopped");
    awaitStopped(lost.task().id());
    assertThat(sandbox.stopped(live.task().id())).isFalse();
    // The failed task takes a follow-up run on the same workspace.
    assertThat(work.call(TaskSubjects.RUN_START, new StartRun(lost.task().id(), "try again"), owner).run().state())
        .isEqualTo(RunState.PREPARING);
  }

  @Test
  void sweeperFailsARunWhoseRunnerStoppedHeartbeatingStopsItsSandboxAndEndsTheStream() throws Exception {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated created = running(work, owner, "runner-killed");
    String taskId = created.task().id();
    String runId = created.run().id();
    events.runnerEmits(taskId, runId, 1, "run_state", java.util.Map.of("state", "running"));
    events.runnerEmits(taskId, runId, 2, "tool_call", java.util.Map.of("name", "run_command"));

    expire(runId); // the runner was killed: no more heartbeats, and the lease runs out

    List<RunEvent> stream = events.untilDone(taskId, runId, PATIENCE); // the periodic sweeper, not a call here
    assertThat(stream).extracting(RunEvent::seq).containsExactly(1L, 2L, 3L, 4L);
    assertThat(stream.get(2).type()).isEqualTo(RunEventType.RUN_STATE);
    assertThat(stream.get(3).data()).containsEntry("state", "failed").containsEntry("reason", RunSweeper.RUNNER_LOST);
    assertThat(run(work, owner, created).state()).isEqualTo(RunState.FAILED);
    awaitStopped(taskId);
    LeaseState late = beat(work, taskId, runId, "runner-killed");
    assertThat(late.held()).as("a runner that comes back must stop driving").isFalse();
    assertThat(late.runState()).isEqualTo(RunState.FAILED);
  }

  @Test
  void aLiveRunnerRenewsAnExpiredLeaseBeforeTheSweepAndKeepsTheRun() {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated created = running(work, owner, "runner-slow");
    expire(created.run().id());

    LeaseState renewed = beat(work, created.task().id(), created.run().id(), "runner-slow");
    recovery.recover().await().atMost(PATIENCE);

    assertThat(renewed.held()).isTrue();
    assertThat(run(work, owner, created).state()).isEqualTo(RunState.RUNNING);
  }

  @Test
  void aQueuedRunWhoseRequestIsGoneIsFailedButOneStillQueuedWaits() throws Exception {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated waiting = work.createTask(owner);
    TaskCreated orphan = work.createTask(owner);
    queue.remove(connection, codec, orphan.run().id());
    age(waiting.run().id());
    age(orphan.run().id());

    recovery.recover().await().atMost(PATIENCE);

    assertThat(run(work, owner, waiting).state()).isEqualTo(RunState.PREPARING);
    RunView failed = run(work, owner, orphan);
    assertThat(failed.state()).isEqualTo(RunState.FAILED);
    assertThat(failed.reason()).isEqualTo(RunSweeper.REQUEST_LOST);
    assertThat(detail(work, owner, orphan).task().state()).isEqualTo(TaskState.FAILED);
    assertThat(events.untilDone(orphan.task().id(), orphan.run().id(), PATIENCE).getLast().data()).containsEntry("state", "failed");
  }

  /** A run claimed by {@code runner}, which holds its lease from then on. */
  private static TaskCreated running(WorkClient work, Actor owner, String runner) {
    TaskCreated created = work.createTask(owner);
    work.call(TaskSubjects.RUNNER_CLAIM, new ClaimRun(created.task().id(), created.run().id(), runner), WorkClient.RUNNER);
    return created;
  }

  private static LeaseState beat(WorkClient work, String taskId, String runId, String runner) {
    return work.call(TaskSubjects.RUNNER_HEARTBEAT, new Heartbeat(taskId, runId, runner), WorkClient.RUNNER);
  }

  private static RunView run(WorkClient work, Actor owner, TaskCreated created) {
    return work.call(TaskSubjects.RUN_GET, new GetRun(created.task().id(), created.run().id()), owner).run();
  }

  private static TaskDetail detail(WorkClient work, Actor owner, TaskCreated created) {
    return work.call(TaskSubjects.GET, new TaskRef(created.task().id()), owner);
  }

  /** Moves the lease into the past, as time passing without heartbeats would. */
  private void expire(String runId) {
    assertThat(sql.update("update runs set lease_expires_at = now() - interval '1 minute' where id = ?1", UUID.fromString(runId)))
        .isEqualTo(1);
  }

  /** Makes an untaken run older than the grace a queued run gets. */
  private void age(String runId) {
    assertThat(sql.update("update runs set created_at = now() - interval '1 hour' where id = ?1", UUID.fromString(runId)))
        .isEqualTo(1);
  }

  private void awaitStopped(String taskId) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!sandbox.stopped(taskId)) {
      assertThat(System.nanoTime()).as("sandbox-service was asked to stop the sandbox").isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
