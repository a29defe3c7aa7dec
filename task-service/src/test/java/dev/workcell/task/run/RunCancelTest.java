package dev.workcell.task.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.contracts.task.RunControlApi.RunControl;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.TaskApi.RunCancelled;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.RunEventsReader;
import dev.workcell.task.support.SandboxFixture;
import dev.workcell.task.support.WorkClient;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 6: cancel leaves Needs input with the files kept, ends the live stream and tells the runner at once. */
@QuarkusTest
class RunCancelTest {

  @Inject
  NatsRequester nats;

  @Inject
  NatsConnection connection;

  @Inject
  MessageCodec codec;

  @Inject
  RunEventsReader events;

  @Inject
  SandboxFixture sandbox;

  @Test
  void cancelEndsTheRunNeedsInputPushesCancelToTheRunnerAndEndsTheStream() throws Exception {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated created = work.createTask(owner);
    String taskId = created.task().id();
    String runId = created.run().id();
    work.move(taskId, runId, "running");
    events.runnerEmits(taskId, runId, 1, "run_state", Map.of("state", "running"));
    events.runnerEmits(taskId, runId, 2, "assistant_delta", Map.of("text", "Working on it"));
    Subscription control = connection.connection().subscribe(RunControlApi.controlSubject(runId));
    connection.connection().flush(Duration.ofSeconds(5));

    RunCancelled cancelled = work.call(TaskSubjects.RUN_CANCEL, new TaskRef(taskId), owner);

    assertThat(cancelled.run().state()).isEqualTo(RunState.NEEDS_INPUT);
    assertThat(cancelled.run().reason()).isEqualTo("cancelled by the owner");
    assertThat(cancelled.task().state()).isEqualTo(TaskState.NEEDS_INPUT);
    Message pushed = control.nextMessage(Duration.ofSeconds(2));
    assertThat(pushed).as("the runner is told at once").isNotNull();
    assertThat(codec.decode(pushed.getData(), RunControl.class))
        .isEqualTo(new RunControl(taskId, runId, RunControlApi.CANCEL, RunState.NEEDS_INPUT));
    List<RunEvent> stream = events.untilDone(taskId, runId, Duration.ofSeconds(5));
    assertThat(stream).extracting(RunEvent::seq).containsExactly(1L, 2L, 3L, 4L);
    assertThat(stream.get(2).type()).isEqualTo(RunEventType.RUN_STATE);
    assertThat(stream.get(2).data()).containsEntry("state", "needs_input");
    assertThat(stream.get(3).type()).isEqualTo(RunEventType.DONE);
    assertThat(stream.get(3).data()).containsEntry("state", "needs_input").containsEntry("reason", "cancelled by the owner");
    // The files stay: nothing asked sandbox-service to stop or delete, and the task takes a follow-up.
    assertThat(sandbox.stopped(taskId)).isFalse();
    assertThat(sandbox.deleted(taskId)).isFalse();
    TaskDetail detail = work.call(TaskSubjects.GET, new TaskRef(taskId), owner);
    assertThat(detail.task().state()).isEqualTo(TaskState.NEEDS_INPUT);
    assertThat(work.call(TaskSubjects.RUN_START, new StartRun(taskId, "go on"), owner).run().state())
        .isEqualTo(RunState.PREPARING);
    control.unsubscribe();
  }

  @Test
  void cancellingAQueuedRunNoRunnerTookStillEndsItsStream() throws Exception {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated created = work.createTask(owner);

    RunCancelled cancelled = work.call(TaskSubjects.RUN_CANCEL, new TaskRef(created.task().id()), owner);

    assertThat(cancelled.run().state()).isEqualTo(RunState.NEEDS_INPUT);
    List<RunEvent> stream = events.untilDone(created.task().id(), created.run().id(), Duration.ofSeconds(5));
    assertThat(stream).extracting(RunEvent::type).containsExactly(RunEventType.RUN_STATE, RunEventType.DONE);
    assertThat(stream).extracting(RunEvent::seq).containsExactly(1L, 2L);
    // A second cancel finds no active run: nothing more is published, the answer is the same.
    assertThat(work.call(TaskSubjects.RUN_CANCEL, new TaskRef(created.task().id()), owner).run().state())
        .isEqualTo(RunState.NEEDS_INPUT);
  }
}
