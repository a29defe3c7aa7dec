package dev.workcell.task.support;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.messaging.JetStreamPublisher;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PushSubscribeOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads a run's live events back from JetStream, as the gateway's SSE stream does, and plays the runner's. */
@ApplicationScoped
public class RunEventsReader {

  private static final Actor RUNNER = Actor.service(ServiceName.AGENT_RUNNER);

  private final NatsConnection nats;
  private final MessageCodec codec;
  private final JetStreamPublisher publisher;

  public RunEventsReader(NatsConnection nats, MessageCodec codec, JetStreamPublisher publisher) {
    this.nats = nats;
    this.codec = codec;
    this.publisher = publisher;
  }

  /** Publishes an event as the runner would. */
  public void runnerEmits(String taskId, String runId, long seq, String type, Map<String, Object> data) {
    publisher.publish(Subjects.RUN_EVENTS, new RunEvent(taskId, runId, seq, RunEventType.fromWire(type), System.currentTimeMillis(), data), RUNNER,
            taskId, runId)
        .await().atMost(Duration.ofSeconds(5));
  }

  /** Every event of the run up to and including done; fails when none comes within {@code patience}. */
  public List<RunEvent> untilDone(String taskId, String runId, Duration patience) throws Exception {
    List<RunEvent> events = new ArrayList<>();
    JetStreamSubscription subscription = nats.connection().jetStream()
        .subscribe(Subjects.runEvents(taskId, runId), PushSubscribeOptions.builder().ordered(true).build());
    try {
      while (true) {
        Message message = subscription.nextMessage(patience);
        if (message == null) {
          throw new AssertionError("no done event; got " + events.stream().map(RunEvent::type).toList());
        }
        RunEvent event = codec.decode(message.getData(), RunEvent.class);
        events.add(event);
        if (event.type() == RunEventType.DONE) {
          return events;
        }
      }
    } finally {
      subscription.unsubscribe();
    }
  }
}
