package dev.workcell.sandbox.process.service;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.TerminalApi.OpenTerminal;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalAck;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalChunk;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalOpened;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalState;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.sandbox.celld.service.OpenStreams;
import dev.workcell.sandbox.celld.service.OrderedPublisher;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The terminals terminal-service opened over NATS, by session id: output is published on the
 * session's subject as celld delivers it (core NATS, never blocking celld's reader), and credit
 * comes back as {@link TerminalAck}s, so at most one window per session is in flight whatever the
 * browser does. A session that hears nothing (no input, ack or keepalive) for the orphan timeout is
 * closed: a terminal-service that went away cannot leave shells running.
 */
@ApplicationScoped
public class OpenTerminals {

  private final TerminalSessions terminals;
  private final NatsConnection nats;
  private final MessageCodec codec;
  private final Vertx vertx;
  private final OpenStreams<TerminalSession> open;

  public OpenTerminals(TerminalSessions terminals, NatsConnection nats, MessageCodec codec, Vertx vertx,
      @ConfigProperty(name = "workcell.sandbox.terminal.orphan-timeout", defaultValue = "2m") Duration orphanTimeout) {
    this.terminals = terminals;
    this.nats = nats;
    this.codec = codec;
    this.vertx = vertx;
    this.open = new OpenStreams<>("terminal session", orphanTimeout);
  }

  void start(@Observes StartupEvent event) {
    open.start(nats, codec, vertx, SandboxSubjects.TERMINAL_ACK.pattern(), TerminalAck.class, TerminalAck::sessionId, TerminalAck::bytes);
  }

  void stop(@Observes ShutdownEvent event) {
    open.stop();
  }

  public Uni<TerminalOpened> open(SandboxRef ref, OpenTerminal request) {
    String id = request.sessionId();
    open.requireNewId(id, "sessionId");
    OrderedPublisher publisher = new OrderedPublisher(nats, codec, SandboxSubjects.TERMINAL_OUTPUT.subject(id),
        (seq, data) -> new TerminalChunk(id, seq, data, null));
    return terminals.open(ref, new TerminalOptions(request.cols(), request.rows(), null, null, null), publisher::output)
        .map(terminal -> {
          open.add(id, terminal, terminal.ended(), (end, failure) ->
              publisher.last((seq, none) -> new TerminalChunk(id, seq, null, end == null ? -1 : end.exitCode())));
          return new TerminalOpened(id, terminal.pid());
        });
  }

  public Uni<TerminalState> input(String id, byte[] data) {
    return open.require(id).input(data).map(ok -> state(id));
  }

  public Uni<TerminalState> resize(String id, int cols, int rows) {
    return open.require(id).resize(cols, rows).map(ok -> state(id));
  }

  public Uni<TerminalState> close(String id) {
    TerminalSession terminal = open.find(id);
    if (terminal == null) {
      return Uni.createFrom().item(new TerminalState(id, false));
    }
    return terminal.close().map(ok -> new TerminalState(id, false));
  }

  /** How many terminals this instance holds open (tests, metrics). */
  public int size() {
    return open.size();
  }

  private TerminalState state(String id) {
    return new TerminalState(id, open.isOpen(id));
  }
}
