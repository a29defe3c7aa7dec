package dev.workcell.agent.run.messaging;

import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.Streams;
import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.run.service.DrivenRuns;
import dev.workcell.agent.run.service.RunSignals;
import dev.workcell.agent.run.service.AgentLoop;
import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.RunnerApi.ClaimedRun;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Takes run-start requests ({@link RunRef}) off the JetStream work queue with a durable pull
 * consumer shared by every runner replica. A request is acked only once its run is claimed (one
 * request to task-service: running with this runner's lease, the spec and the model context); one
 * that cannot be claimed yet (task-service away) is nak'ed for redelivery, one whose run already
 * ended or is driven elsewhere ({@code conflict}) is acked and dropped.
 */
@ApplicationScoped
public class RunRequestIntake {

  /** The durable pull consumer every runner replica shares, so each request is taken once. */
  static final String CONSUMER = "agent-runner";

  private static final Duration ACK_WAIT = Duration.ofSeconds(60);
  private static final Duration RETRY = Duration.ofSeconds(2);

  private final NatsConnection nats;
  private final TaskServiceClient tasks;
  private final AgentLoop loop;
  private final DrivenRuns driven;
  private final MessageCodec codec;
  private final Semaphore slots;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile boolean stopping;
  private volatile boolean subscribed;

  public RunRequestIntake(NatsConnection nats, TaskServiceClient tasks, AgentLoop loop, DrivenRuns driven, MessageCodec codec,
      AgentSettings settings) {
    this.driven = driven;
    this.nats = nats;
    this.tasks = tasks;
    this.loop = loop;
    this.codec = codec;
    this.slots = new Semaphore(settings.maxConcurrentRuns());
  }

  void start(@Observes StartupEvent event) {
    nats.whenConnected(connection -> {
      if (started.compareAndSet(false, true)) {
        Thread.ofVirtual().name("run-intake").start(this::pull);
      }
    });
  }

  void stop(@Observes ShutdownEvent event) {
    stopping = true;
  }

  /** True while the durable consumer is bound and requests can be taken. */
  public boolean subscribed() {
    return subscribed && nats.connected();
  }

  private static final Duration STREAM_WAIT = Duration.ofMillis(100);

  private static boolean streamMissing(Exception e) {
    return e instanceof JetStreamApiException api && api.getApiErrorCode() == 10059;
  }

  private void pull() {
    JetStreamSubscription subscription = null;
    while (!stopping) {
      try {
        if (subscription == null) {
          subscription = subscribe(nats.connection());
          subscribed = true;
        }
        slots.acquire();
        List<Message> messages;
        try {
          messages = subscription.fetch(1, Duration.ofSeconds(1));
        } catch (RuntimeException e) {
          slots.release();
          throw e;
        }
        if (messages.isEmpty()) {
          slots.release();
        }
        for (Message message : messages) {
          take(message);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (IOException | JetStreamApiException | RuntimeException e) {
        if (!stopping && nats.connected()) {
          Log.warnf("run intake: %s; retrying", e.getMessage());
        }
        if (!stopping) {
          subscription = null;
          subscribed = false;
          // At connect the streams are being created in the same moment (StreamProvisioner): look again soon.
          sleep(streamMissing(e) ? STREAM_WAIT : RETRY);
        }
      }
    }
  }

  private JetStreamSubscription subscribe(Connection connection) throws IOException, JetStreamApiException {
    ConsumerConfiguration consumer = ConsumerConfiguration.builder()
        .durable(CONSUMER)
        .filterSubject(Subjects.RUN_REQUESTS.pattern())
        .ackPolicy(AckPolicy.Explicit)
        .ackWait(ACK_WAIT)
        .build();
    connection.jetStreamManagement().addOrUpdateConsumer(Streams.RUN_REQUESTS.name(), consumer);
    return connection.jetStream().subscribe(Subjects.RUN_REQUESTS.pattern(),
        PullSubscribeOptions.bind(Streams.RUN_REQUESTS.name(), CONSUMER));
  }

  /** Takes one request: the slot acquired for it is released when its run ends (or is not taken). */
  private void take(Message message) {
    ClaimedRun claimed;
    RunSignals signals = null;
    try {
      RunRef ref = codec.decode(message.getData(), RunRef.class);
      if (driven.drives(ref.runId())) {
        message.ack(); // a redelivery of a run this runner already drives
        slots.release();
        return;
      }
      // Listening before the claim: a message posted after the claim's context was read is pushed here.
      signals = driven.open(ref);
      claimed = tasks.claim(ref, driven.runnerId());
    } catch (RuntimeException e) {
      if (signals != null) {
        driven.close(signals);
      }
      slots.release();
      if (e instanceof WorkcellException known && (known.code() == ErrorCode.SERVICE_UNAVAILABLE
          || known.code() == ErrorCode.UPSTREAM_TIMEOUT)) {
        message.nakWithDelay(RETRY);
      } else if (!(e instanceof WorkcellException)) {
        // A request this runner cannot read at all would only come back: terminate it.
        Log.errorf(e, "run request terminated");
        message.term();
      } else {
        // not_found, conflict (another runner claimed it, or it ended), malformed: nothing to retry.
        Log.infof("run request dropped: %s", e.getMessage());
        message.ack();
      }
      return;
    }
    message.ack();
    RunSignals taken = signals;
    Thread.ofVirtual().name("run-" + claimed.spec().run().id()).start(() -> {
      try {
        loop.drive(claimed, taken);
      } finally {
        slots.release();
      }
    });
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
