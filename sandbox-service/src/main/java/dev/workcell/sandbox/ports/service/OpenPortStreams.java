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
import dev.workcell.sandbox.celld.service.OpenStreams;
import dev.workcell.sandbox.celld.service.OrderedPublisher;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
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

  private final SandboxLifecycle lifecycle;
  private final NatsConnection nats;
  private final MessageCodec codec;
  private final Vertx vertx;
  private final OpenStreams<PortStream> open;

  public OpenPortStreams(SandboxLifecycle lifecycle, NatsConnection nats, MessageCodec codec, Vertx vertx,
      @ConfigProperty(name = "workcell.sandbox.port-stream.idle-timeout", defaultValue = "60s") Duration idleTimeout) {
    this.lifecycle = lifecycle;
    this.nats = nats;
    this.codec = codec;
    this.vertx = vertx;
    this.open = new OpenStreams<>("port stream", idleTimeout);
  }

  void start(@Observes StartupEvent event) {
    open.start(nats, codec, vertx, SandboxSubjects.PORT_STREAM_ACK.pattern(), PortStreamAck.class,
        PortStreamAck::streamId, PortStreamAck::bytes);
  }

  void stop(@Observes ShutdownEvent event) {
    open.stop();
  }

  public Uni<PortStreamState> open(OpenPortStream request) {
    String id = request.streamId();
    open.requireNewId(id, "streamId");
    if (request.sandbox() == null || !request.sandbox().isHome()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "ports are reached in home sandboxes only");
    }
    int port = request.port();
    if (port < 1 || port > 65535) {
      throw new WorkcellException(ErrorCode.INVALID_PORT, "Port must be between 1 and 65535");
    }
    var lease = lifecycle.useIfActive(request.sandbox());
    if (lease.isEmpty()) {
      // Upstream's answer when nothing listens: a home that does not run has no listener.
      throw new WorkcellException(ErrorCode.CONNECTION_REFUSED, "Connection refused: localhost:" + port);
    }
    OrderedPublisher publisher = new OrderedPublisher(nats, codec, SandboxSubjects.PORT_STREAM_OUTPUT.subject(id),
        (seq, data) -> new PortStreamChunk(id, seq, data, false));
    return PortStream.open(lease.get(), port, publisher::output).map(stream -> {
      open.add(id, stream, stream.ended(), (end, failure) -> publisher.last((seq, none) -> new PortStreamChunk(id, seq, null, true)));
      return new PortStreamState(id, true);
    });
  }

  public Uni<PortStreamState> write(String id, byte[] data) {
    return open.require(id).write(data).map(ok -> new PortStreamState(id, open.isOpen(id)));
  }

  public Uni<PortStreamState> close(String id) {
    PortStream stream = open.find(id);
    if (stream == null) {
      return Uni.createFrom().item(new PortStreamState(id, false));
    }
    return stream.close().map(ok -> new PortStreamState(id, false));
  }

  /** How many streams this instance holds open (tests). */
  public int size() {
    return open.size();
  }
}
