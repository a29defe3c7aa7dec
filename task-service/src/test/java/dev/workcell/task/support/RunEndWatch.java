package dev.workcell.task.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.contracts.task.RunControlApi.RunControl;
import dev.workcell.contracts.task.RunState;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.Message;
import io.nats.client.Subscription;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Asserts that something task-service does ends a running run at once: the runner is told and the stream ends. */
@ApplicationScoped
public class RunEndWatch {

  private final NatsConnection connection;
  private final MessageCodec codec;
  private final RunEventsReader events;

  public RunEndWatch(NatsConnection connection, MessageCodec codec, RunEventsReader events) {
    this.connection = connection;
    this.codec = codec;
    this.events = events;
  }

  /** Moves the run to running (as its runner would), runs {@code action}, and checks the push and the stream's end. */
  public void endsAtOnce(WorkClient work, String taskId, String runId, String reason, Runnable action) throws Exception {
    work.move(taskId, runId, "running");
    events.runnerEmits(taskId, runId, 1, "run_state", Map.of("state", "running"));
    Subscription control = connection.connection().subscribe(RunControlApi.controlSubject(runId));
    try {
      connection.connection().flush(Duration.ofSeconds(5));
      action.run();
      Message pushed = control.nextMessage(Duration.ofSeconds(2));
      assertThat(pushed).as("the runner is told at once, not at its next heartbeat").isNotNull();
      assertThat(codec.decode(pushed.getData(), RunControl.class))
          .isEqualTo(new RunControl(taskId, runId, RunControlApi.ENDED, RunState.CANCELLED));
      List<RunEvent> stream = events.untilDone(taskId, runId, Duration.ofSeconds(5));
      assertThat(stream.getLast().type()).isEqualTo(RunEventType.DONE);
      assertThat(stream.getLast().data()).containsEntry("state", "cancelled").containsEntry("reason", reason);
    } finally {
      control.unsubscribe();
    }
  }
}
