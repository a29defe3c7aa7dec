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
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import io.nats.client.Dispatcher;
import io.nats.client.Subscription;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The gateway's end of port streams (decision 0020): opens a connection to a port inside a user's
 * home through sandbox-service, delivers its output chunks in order to the exchange that opened
 * it, and sends writes, credit and keepalives back. Streams stay open only while their exchange
 * lives; a keepalive every 20 s keeps sandbox-service's idle close (60 s) away from a slow answer.
 */
@ApplicationScoped
public class PortStreams {

  private static final Actor GATEWAY = Actor.service(ServiceName.GATEWAY);
  // Connecting waits up to 5 s in celld; the rest is NATS and sandbox-service.
  private static final Duration OPEN_DEADLINE = Duration.ofSeconds(15);
  private static final Duration WRITE_DEADLINE = Duration.ofSeconds(40);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final NatsConnection nats;
  private final NatsRequester requester;
  private final MessageCodec codec;
  private final Vertx vertx;
  private final Map<String, Subscription> open = new ConcurrentHashMap<>();
  private volatile Dispatcher dispatcher;
  private long keepalive = -1;

  public PortStreams(NatsConnection nats, NatsRequester requester, MessageCodec codec, Vertx vertx) {
    this.nats = nats;
    this.requester = requester;
    this.codec = codec;
    this.vertx = vertx;
  }

  void start(@Observes StartupEvent event) {
    keepalive = vertx.setPeriodic(20_000, id -> open.keySet().forEach(stream -> acknowledge(stream, 0)));
  }

  void stop(@Observes ShutdownEvent event) {
    vertx.cancelTimer(keepalive);
    open.keySet().forEach(this::close);
  }

  /**
   * Subscribes {@code chunks} (called on a NATS thread, in arrival order) to a new stream's output,
   * then asks for the connection; the Uni fails with sandbox-service's refusal (502, 504, 422…).
   */
  public Uni<String> open(SandboxRef home, int port, Consumer<PortStreamChunk> chunks) {
    String id = newId();
    open.put(id, dispatcher().subscribe(SandboxSubjects.PORT_STREAM_OUTPUT.subject(id), message -> {
      PortStreamChunk chunk;
      try {
        chunk = codec.decode(message.getData(), PortStreamChunk.class);
      } catch (RuntimeException e) {
        Log.warnf("port stream %s: unreadable chunk: %s", id, e.getMessage());
        return;
      }
      chunks.accept(chunk);
    }));
    return requester.request(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(home, id, port), GATEWAY, OPEN_DEADLINE)
        .map(state -> id)
        .onFailure().invoke(failure -> close(id)); // a late open (deadline passed) is closed too
  }

  /** Bytes for the server; completes once the sandbox took them, which is the upload's backpressure. */
  public Uni<Void> write(String id, byte[] data) {
    return requester.request(SandboxSubjects.PORT_STREAM_WRITE, new PortStreamWrite(id, data), GATEWAY, WRITE_DEADLINE).replaceWithVoid();
  }

  public void acknowledge(String id, int bytes) {
    if (nats.connected()) {
      nats.connection().publish(SandboxSubjects.PORT_STREAM_ACK.pattern(), codec.encode(new PortStreamAck(id, bytes)));
    }
  }

  /** Ends the stream and stops listening to it; idempotent. */
  public void close(String id) {
    Subscription subscription = open.remove(id);
    if (subscription == null) {
      return;
    }
    dispatcher.unsubscribe(subscription);
    requester.request(SandboxSubjects.PORT_STREAM_CLOSE, new PortStreamClose(id), GATEWAY).subscribe().with(
        ok -> {}, e -> Log.debugf("closing port stream %s: %s", id, e.getMessage()));
  }

  /** Streams this gateway holds open (tests). */
  public int size() {
    return open.size();
  }

  private synchronized Dispatcher dispatcher() {
    if (dispatcher == null) {
      dispatcher = nats.connection().createDispatcher();
    }
    return dispatcher;
  }

  /** 128 random bits, a subject token: the stream's only handle. */
  private static String newId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
