package dev.workcell.task.support;

import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.JetStreamApiException;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The run queue as the tests see it: the contract's own JetStream work queue (provisioned by the
 * service at connect, on the module's private NATS, so publishing works as in production and no
 * real agent-runner takes anything) and a plain subscription that records every queued {@link RunRef}.
 * The private server starts empty with each test application, so the queue holds this run's
 * requests only (the sweeper judges no request lost in a queue it cannot read whole,
 * RunQueue.MAX_QUEUE_READ).
 */
@ApplicationScoped
public class RunQueueFixture {

  private final List<RunRef> queued = new CopyOnWriteArrayList<>();

  void register(@Observes StartupEvent event, NatsConnection nats, MessageCodec codec) {
    nats.connection().createDispatcher(message -> queued.add(codec.decode(message.getData(), RunRef.class)))
        .subscribe(Subjects.RUN_REQUESTS.pattern());
  }

  public boolean queued(String taskId, String runId) {
    return queued.contains(new RunRef(taskId, runId));
  }

  /** Takes a run's request off the queue, as a runner's ack (or a lost queue) would. */
  public void remove(NatsConnection nats, MessageCodec codec, String runId) throws IOException, JetStreamApiException {
    String stream = Streams.RUN_REQUESTS.name();
    var management = nats.connection().jetStreamManagement();
    var state = management.getStreamInfo(stream).getStreamState();
    for (long seq = state.getFirstSequence(); seq <= state.getLastSequence(); seq++) {
      try {
        var message = management.getMessage(stream, seq);
        if (codec.decode(message.getData(), RunRef.class).runId().equals(runId)) {
          management.deleteMessage(stream, seq);
          return;
        }
      } catch (JetStreamApiException e) {
        // already deleted
      }
    }
    throw new IllegalStateException("run " + runId + " is not queued");
  }
}
