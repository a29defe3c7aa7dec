package dev.workcell.task.run.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.messaging.ActorHeaders;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.TraceContext;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.support.ReactiveContext;
import io.nats.client.JetStreamApiException;
import io.nats.client.PublishOptions;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last two live events of a run that task-service ended itself (cancel, lost runner, a request
 * that never reached a runner): {@code run_state} and {@code done}, numbered after the runner's
 * last event, so SSE clients end. Each publish expects the subject's last stream sequence it read:
 * if the runner published meanwhile, the numbers are read again. A stream that already ends with
 * {@code done} gets nothing more. Failures are logged; the database stays the record.
 */
@ApplicationScoped
public class RunEndEvents {

  private static final Actor SELF = Actor.service(ServiceName.TASK);
  private static final int NO_MESSAGE_FOUND = 10037;
  private static final int WRONG_LAST_SEQUENCE = 10071;
  private static final int ATTEMPTS = 5;

  private final NatsConnection nats;
  private final MessageCodec codec;
  private final TaskSettings settings;

  public RunEndEvents(NatsConnection nats, MessageCodec codec, TaskSettings settings) {
    this.nats = nats;
    this.codec = codec;
    this.settings = settings;
  }

  /** Publishes {@code run_state{state, reason}} and {@code done{state, reason}}; never fails. */
  public Uni<Void> publish(String taskId, String runId, String state, String reason) {
    Uni<Void> work = Uni.createFrom().item(() -> {
      publishBlocking(taskId, runId, state, reason);
      return (Void) null;
    }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    return ReactiveContext.backOnContext(work)
        .onFailure().invoke(e -> Log.warnf("run %s: final events not published: %s", runId, e.getMessage()))
        .onFailure().recoverWithNull();
  }

  private void publishBlocking(String taskId, String runId, String state, String reason) {
    String subject = Subjects.runEvents(taskId, runId);
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        Last last = last(subject);
        if (last.done()) {
          return;
        }
        long streamSeq = publish(subject, event(taskId, runId, last.seq() + 1, RunEventType.RUN_STATE, state, reason), last.streamSeq());
        publish(subject, event(taskId, runId, last.seq() + 2, RunEventType.DONE, state, reason), streamSeq);
        return;
      } catch (JetStreamApiException e) {
        if (e.getApiErrorCode() != WRONG_LAST_SEQUENCE || attempt == ATTEMPTS) {
          throw new IllegalStateException(e.getMessage(), e);
        }
      } catch (IOException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    }
  }

  /** The run's last event: its per-run seq, its stream sequence (0: none yet) and whether it is done. */
  private record Last(long seq, long streamSeq, boolean done) {}

  private Last last(String subject) throws IOException, JetStreamApiException {
    MessageInfo info;
    try {
      info = nats.connection().jetStreamManagement().getLastMessage(Streams.RUN_EVENTS.name(), subject);
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == NO_MESSAGE_FOUND) {
        return new Last(0, 0, false);
      }
      throw e;
    }
    RunEvent event = codec.decode(info.getData(), RunEvent.class);
    return new Last(event.seq(), info.getSeq(), event.type() == RunEventType.DONE);
  }

  private long publish(String subject, RunEvent event, long expectedLastSubjectSeq) throws IOException, JetStreamApiException {
    Headers headers = ActorHeaders.write(new Headers(), SELF, TraceContext.outgoing());
    var message = NatsMessage.builder().subject(subject).headers(headers).data(codec.encode(event)).build();
    PublishAck ack = nats.connection().jetStream()
        .publish(message, PublishOptions.builder().expectedLastSubjectSequence(expectedLastSubjectSeq).build());
    return ack.getSeqno();
  }

  private static RunEvent event(String taskId, String runId, long seq, RunEventType type, String state, String reason) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("state", state);
    data.put("reason", reason);
    return new RunEvent(taskId, runId, seq, type, System.currentTimeMillis(), data);
  }
}
