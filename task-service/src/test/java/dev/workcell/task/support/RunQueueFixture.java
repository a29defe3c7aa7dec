package dev.workcell.task.support;

import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.task.config.TaskSettings;
import io.nats.client.JetStreamApiException;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The test profile's run queue: a JetStream stream of its own on the test NATS (so publishing
 * works as in production) and a plain subscription that records every queued {@link RunRef}.
 */
@ApplicationScoped
public class RunQueueFixture {

  public static final String STREAM = "WORKCELL_TEST_TASK_SERVICE_RUNS";
  /** The stream's subject, fixed: a test profile that moves the queue elsewhere must find no stream there. */
  public static final String SUBJECT = "workcell.test.task-service.run.requests";

  private final List<RunRef> queued = new CopyOnWriteArrayList<>();

  void register(@Observes StartupEvent event, NatsConnection nats, TaskSettings settings, MessageCodec codec)
      throws IOException, JetStreamApiException {
    StreamConfiguration config = StreamConfiguration.builder().name(STREAM).subjects(SUBJECT)
        .storageType(StorageType.File).maxAge(Duration.ofHours(1)).build();
    var management = nats.connection().jetStreamManagement();
    if (!management.getStreamNames().contains(STREAM)) {
      management.addStream(config);
    } else {
      // Each run starts from an empty queue, as from an empty database: nothing takes these requests,
      // a bench run leaves thousands, and the sweeper judges no request lost in a queue it cannot read
      // whole (RunQueue.MAX_QUEUE_READ).
      management.purgeStream(STREAM);
    }
    nats.connection().createDispatcher(message -> queued.add(codec.decode(message.getData(), RunRef.class)))
        .subscribe(settings.runRequestsSubject());
  }

  public boolean queued(String taskId, String runId) {
    return queued.contains(new RunRef(taskId, runId));
  }

  /** Takes a run's request off the queue, as a runner's ack (or a lost queue) would. */
  public void remove(NatsConnection nats, MessageCodec codec, String runId) throws IOException, JetStreamApiException {
    var management = nats.connection().jetStreamManagement();
    var state = management.getStreamInfo(STREAM).getStreamState();
    for (long seq = state.getFirstSequence(); seq <= state.getLastSequence(); seq++) {
      try {
        var message = management.getMessage(STREAM, seq);
        if (codec.decode(message.getData(), RunRef.class).runId().equals(runId)) {
          management.deleteMessage(STREAM, seq);
          return;
        }
      } catch (JetStreamApiException e) {
        // already deleted
      }
    }
    throw new IllegalStateException("run " + runId + " is not queued");
  }
}
