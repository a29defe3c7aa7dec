package dev.workcell.agent.run.event;

import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.JetStreamApiException;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;

/** Whether a run's live stream already ends with {@code done} (task-service ended the run and said so). */
@ApplicationScoped
public class RunStreamEnd {

  private static final int NO_MESSAGE_FOUND = 10037;

  private final NatsConnection nats;
  private final MessageCodec codec;

  public RunStreamEnd(NatsConnection nats, MessageCodec codec) {
    this.nats = nats;
    this.codec = codec;
  }

  /** True when the last event is done; false when not, or when it cannot be read (then the runner ends it). */
  public boolean endsWithDone(String taskId, String runId) {
    try {
      var last = nats.connection().jetStreamManagement().getLastMessage(Streams.RUN_EVENTS.name(), Subjects.runEvents(taskId, runId));
      return codec.decode(last.getData(), RunEvent.class).type() == RunEventType.DONE;
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != NO_MESSAGE_FOUND) {
        Log.warnf("run %s: last event not readable: %s", runId, e.getMessage());
      }
      return false;
    } catch (IOException | RuntimeException e) {
      Log.warnf("run %s: last event not readable: %s", runId, e.getMessage());
      return false;
    }
  }
}
