package dev.workcell.gateway.openterminal.proxy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.sandbox.PortStreamApi.OpenPortStream;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamAck;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamChunk;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamClose;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamWrite;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.InstanceWatch;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.messaging.stream.PushedStreams;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The gateway's end of port streams (decision 0020): opens a connection to a port inside a user's
 * home through sandbox-service, delivers its output chunks in order to the exchange that opened
 * it, and sends writes, credit and keepalives back. Streams stay open only while their exchange
 * lives; a keepalive every 20 s keeps sandbox-service's idle close (60 s) away from a slow answer.
 * A stream whose sandbox-service instance is gone is reported lost ({@link PushedStreams}).
 */
@ApplicationScoped
public class PortStreams {

  private static final Actor GATEWAY = Actor.service(ServiceName.GATEWAY);
  // Connecting waits up to 5 s in celld; the rest is NATS and sandbox-service.
  private static final Duration OPEN_DEADLINE = Duration.ofSeconds(15);
  private static final Duration WRITE_DEADLINE = Duration.ofSeconds(40);

  private final NatsRequester requester;
  private final Vertx vertx;
  private final PushedStreams<PortStreamChunk> streams;
  private long keepalive = -1;

  public PortStreams(NatsConnection nats, NatsRequester requester, MessageCodec codec, InstanceWatch watch, Vertx vertx) {
    this.requester = requester;
    this.vertx = vertx;
    this.streams = new PushedStreams<>("port stream", PortStreamChunk.class, SandboxSubjects.PORT_STREAM_OUTPUT::subject,
        nats, requester, codec, watch);
  }

  void start(@Observes StartupEvent event) {
    keepalive = vertx.setPeriodic(20_000, id -> streams.ids().forEach(stream -> acknowledge(stream, 0)));
  }

  void stop(@Observes ShutdownEvent event) {
    vertx.cancelTimer(keepalive);
    Set.copyOf(streams.ids()).forEach(this::close);
  }

  /**
   * Subscribes {@code chunks} (called on a NATS thread, in arrival order) to a new stream's output,
   * then asks for the connection; the Uni fails with sandbox-service's refusal (502, 504, 422…).
   * {@code lost} runs (on a NATS thread) if the sandbox-service instance holding the stream goes away.
   */
  public Uni<String> open(SandboxRef home, int port, Consumer<PortStreamChunk> chunks, Runnable lost) {
    String id = PushedStreams.newId();
    return streams.open(id, chunks, lost, SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(home, id, port), GATEWAY,
            OPEN_DEADLINE)
        .map(state -> id)
        .onFailure().invoke(failure -> close(id)); // a late open (deadline passed) is closed too
  }

  /** Bytes for the server; completes once the sandbox took them, which is the upload's backpressure. */
  public Uni<Void> write(String id, byte[] data) {
    return requester.request(SandboxSubjects.PORT_STREAM_WRITE, new PortStreamWrite(id, data), GATEWAY, WRITE_DEADLINE).replaceWithVoid();
  }

  public void acknowledge(String id, int bytes) {
    streams.publish(SandboxSubjects.PORT_STREAM_ACK.pattern(), new PortStreamAck(id, bytes));
  }

  /** Ends the stream and stops listening to it; idempotent. */
  public void close(String id) {
    if (!streams.forget(id)) {
      return;
    }
    requester.request(SandboxSubjects.PORT_STREAM_CLOSE, new PortStreamClose(id), GATEWAY).subscribe().with(
        ok -> {}, e -> Log.debugf("closing port stream %s: %s", id, e.getMessage()));
  }

  /** Streams this gateway holds open (tests). */
  public int size() {
    return streams.ids().size();
  }
}
