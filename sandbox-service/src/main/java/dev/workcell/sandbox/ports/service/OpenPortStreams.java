package dev.workcell.sandbox.ports.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.PortStreamApi.OpenPortStream;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamAck;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamChunk;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamState;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.process.service.TerminalOutput;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The port streams the gateway opened for Open Terminal's /proxy (decision 0020), by stream id. A
 * stream reaches a port of the home sandbox named in the request only, and only when that sandbox
 * already runs: asking never starts one (nothing would listen in it). Output is published on the
 * stream's subject as celld delivers it and credit comes back as {@link PortStreamAck}s, so at most
 * one window per stream is in flight however slowly the HTTP client reads. A stream that hears
 * nothing from the gateway for the idle timeout is closed.
 */
@ApplicationScoped
public class OpenPortStreams {

  private static final String STREAM_ID = "[A-Za-z0-9_-]{16,64}";

  private final SandboxLifecycle lifecycle;
  private final NatsConnection nats;
  private final MessageCodec codec;
  private final Vertx vertx;
  private final Duration idleTimeout;
  private final Map<String, Open> open = new ConcurrentHashMap<>();
  private long sweeper = -1;

  public OpenPortStreams(SandboxLifecycle lifecycle, NatsConnection nats, MessageCodec codec, Vertx vertx,
      @ConfigProperty(name = "workcell.sandbox.port-stream.idle-timeout", defaultValue = "60s") Duration idleTimeout) {
    this.lifecycle = lifecycle;
    this.nats = nats;
    this.codec = codec;
    this.vertx = vertx;
    this.idleTimeout = idleTimeout;
  }

  void start(@Observes StartupEvent event) {
    nats.whenConnected(connection -> connection.createDispatcher(message -> {
      try {
        ack(codec.decode(message.getData(), PortStreamAck.class));
      } catch (RuntimeException e) {
        Log.debugf("port stream ack not read: %s", e.getMessage());
      }
    }).subscribe(SandboxSubjects.PORT_STREAM_ACK.pattern()));
    sweeper = vertx.setPeriodic(Math.max(1_000, idleTimeout.toMillis() / 4), id -> closeIdle());
  }

  void stop(@Observes ShutdownEvent event) {
    vertx.cancelTimer(sweeper);
    open.values().forEach(session -> session.stream.close().subscribe().with(ok -> {}, e -> {}));
  }

  public Uni<PortStreamState> open(OpenPortStream request) {
    String id = request.streamId();
    if (id == null || !id.matches(STREAM_ID)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "streamId must be 16..64 characters of [A-Za-z0-9_-]");
    }
    if (request.sandbox() == null || !request.sandbox().isHome()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "ports are reached in home sandboxes only");
    }
    int port = request.port();
    if (port < 1 || port > 65535) {
      throw new WorkcellException(ErrorCode.INVALID_PORT, "Port must be between 1 and 65535");
    }
    if (open.containsKey(id)) {
      throw new WorkcellException(ErrorCode.ALREADY_EXISTS, "a port stream with this id is open");
    }
    var lease = lifecycle.useIfActive(request.sandbox());
    if (lease.isEmpty()) {
      // Upstream's answer when nothing listens: a home that does not run has no listener.
      throw new WorkcellException(ErrorCode.CONNECTION_REFUSED, "Connection refused: localhost:" + port);
    }
    Publisher publisher = new Publisher(id, SandboxSubjects.PORT_STREAM_OUTPUT.subject(id));
    return PortStream.open(lease.get(), port, publisher).map(stream -> {
      Open session = new Open(stream);
      if (open.putIfAbsent(id, session) != null) {
        stream.close().subscribe().with(ok -> {}, e -> {});
        throw new WorkcellException(ErrorCode.ALREADY_EXISTS, "a port stream with this id is open");
      }
      stream.ended().whenComplete((end, failure) -> {
        open.remove(id, session);
        publisher.last();
      });
      return new PortStreamState(id, true);
    });
  }

  public Uni<PortStreamState> write(String id, byte[] data) {
    Open session = require(id);
    return session.stream.write(data).map(ok -> new PortStreamState(id, open.containsKey(id)));
  }

  public Uni<PortStreamState> close(String id) {
    Open session = id == null ? null : open.get(id);
    if (session == null) {
      return Uni.createFrom().item(new PortStreamState(id, false));
    }
    return session.stream.close().map(ok -> new PortStreamState(id, false));
  }

  /** How many streams this instance holds open (tests). */
  public int size() {
    return open.size();
  }

  private void ack(PortStreamAck ack) {
    Open session = ack.streamId() == null ? null : open.get(ack.streamId());
    if (session == null) {
      return; // another instance's, or ended
    }
    session.heard = System.nanoTime();
    if (ack.bytes() > 0) {
      session.stream.acknowledge(ack.bytes());
    }
  }

  private Open require(String id) {
    Open session = id == null ? null : open.get(id);
    if (session == null) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such port stream");
    }
    session.heard = System.nanoTime();
    return session;
  }

  private void closeIdle() {
    long now = System.nanoTime();
    open.forEach((id, session) -> {
      if (now - session.heard > idleTimeout.toNanos()) {
        Log.infof("port stream %s: nothing heard for %s, closing", id, idleTimeout);
        session.stream.close().subscribe().with(ok -> {}, e -> Log.debugf("closing port stream %s: %s", id, e.getMessage()));
      }
    });
  }

  private static final class Open {
    final PortStream stream;
    volatile long heard = System.nanoTime();

    Open(PortStream stream) {
      this.stream = stream;
    }
  }

  /** Publishes one stream's chunks in order; called on celld's reader thread, so it must not block. */
  private final class Publisher implements TerminalOutput {
    private final String id;
    private final String subject;
    private final AtomicLong seq = new AtomicLong();

    Publisher(String id, String subject) {
      this.id = id;
      this.subject = subject;
    }

    @Override
    public void output(byte[] data) {
      publish(new PortStreamChunk(id, seq.getAndIncrement(), data, false));
    }

    void last() {
      publish(new PortStreamChunk(id, seq.getAndIncrement(), null, true));
    }

    private void publish(PortStreamChunk chunk) {
      if (nats.connected()) {
        nats.connection().publish(subject, codec.encode(chunk));
      }
    }
  }
}
