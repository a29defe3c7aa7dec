package dev.workcell.sandbox.process.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.TerminalApi.OpenTerminal;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalAck;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalChunk;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalOpened;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalState;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
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
 * The terminals terminal-service opened over NATS, by session id: output is published on the
 * session's subject as celld delivers it (core NATS, never blocking celld's reader), and credit
 * comes back as {@link TerminalAck}s, so at most one window per session is in flight whatever the
 * browser does. A session that hears nothing (no input, ack or keepalive) for the orphan timeout is
 * closed: a terminal-service that went away cannot leave shells running.
 */
@ApplicationScoped
public class OpenTerminals {

  private static final String SESSION_ID = "[A-Za-z0-9_-]{16,64}";

  private final TerminalSessions terminals;
  private final NatsConnection nats;
  private final MessageCodec codec;
  private final Vertx vertx;
  private final Duration orphanTimeout;
  private final Map<String, Open> open = new ConcurrentHashMap<>();
  private long sweeper = -1;

  public OpenTerminals(TerminalSessions terminals, NatsConnection nats, MessageCodec codec, Vertx vertx,
      @ConfigProperty(name = "workcell.sandbox.terminal.orphan-timeout", defaultValue = "2m") Duration orphanTimeout) {
    this.terminals = terminals;
    this.nats = nats;
    this.codec = codec;
    this.vertx = vertx;
    this.orphanTimeout = orphanTimeout;
  }

  void start(@Observes StartupEvent event) {
    nats.whenConnected(connection -> connection.createDispatcher(message -> {
      try {
        ack(codec.decode(message.getData(), TerminalAck.class));
      } catch (RuntimeException e) {
        Log.debugf("terminal ack not read: %s", e.getMessage());
      }
    }).subscribe(SandboxSubjects.TERMINAL_ACK.pattern()));
    long period = Math.max(1_000, orphanTimeout.toMillis() / 4);
    sweeper = vertx.setPeriodic(period, id -> closeOrphans());
  }

  void stop(@Observes ShutdownEvent event) {
    vertx.cancelTimer(sweeper);
    open.values().forEach(session -> session.terminal.close().subscribe().with(ok -> {}, e -> {}));
  }

  public Uni<TerminalOpened> open(SandboxRef ref, OpenTerminal request) {
    String id = request.sessionId();
    if (id == null || !id.matches(SESSION_ID)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "sessionId must be 16..64 characters of [A-Za-z0-9_-]");
    }
    if (open.containsKey(id)) {
      throw new WorkcellException(ErrorCode.ALREADY_EXISTS, "a terminal with this session id is open");
    }
    Publisher publisher = new Publisher(id, SandboxSubjects.TERMINAL_OUTPUT.subject(id));
    return terminals.open(ref, new TerminalOptions(request.cols(), request.rows(), null, null, null), publisher)
        .map(terminal -> {
          Open session = new Open(terminal);
          if (open.putIfAbsent(id, session) != null) {
            terminal.close().subscribe().with(ok -> {}, e -> {});
            throw new WorkcellException(ErrorCode.ALREADY_EXISTS, "a terminal with this session id is open");
          }
          terminal.ended().whenComplete((end, failure) -> {
            open.remove(id, session);
            publisher.last(end == null ? -1 : end.exitCode());
          });
          return new TerminalOpened(id, terminal.pid());
        });
  }

  public Uni<TerminalState> input(String id, byte[] data) {
    Open session = require(id);
    return session.terminal.input(data).map(ok -> state(id));
  }

  public Uni<TerminalState> resize(String id, int cols, int rows) {
    Open session = require(id);
    return session.terminal.resize(cols, rows).map(ok -> state(id));
  }

  public Uni<TerminalState> close(String id) {
    Open session = open.get(id);
    if (session == null) {
      return Uni.createFrom().item(new TerminalState(id, false));
    }
    return session.terminal.close().map(ok -> new TerminalState(id, false));
  }

  /** How many terminals this instance holds open (tests, metrics). */
  public int size() {
    return open.size();
  }

  private void ack(TerminalAck ack) {
    Open session = ack.sessionId() == null ? null : open.get(ack.sessionId());
    if (session == null) {
      return; // another instance's, or ended
    }
    session.heard = System.nanoTime();
    if (ack.bytes() > 0) {
      session.terminal.acknowledge(ack.bytes());
    }
  }

  private Open require(String id) {
    Open session = id == null ? null : open.get(id);
    if (session == null) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such terminal session");
    }
    session.heard = System.nanoTime();
    return session;
  }

  private TerminalState state(String id) {
    return new TerminalState(id, open.containsKey(id));
  }

  private void closeOrphans() {
    long now = System.nanoTime();
    open.forEach((id, session) -> {
      if (now - session.heard > orphanTimeout.toNanos()) {
        Log.infof("terminal %s: nothing heard for %s, closing", id, orphanTimeout);
        session.terminal.close().subscribe().with(ok -> {}, e -> Log.debugf("closing terminal %s: %s", id, e.getMessage()));
      }
    });
  }

  private static final class Open {
    final TerminalSession terminal;
    volatile long heard = System.nanoTime();

    Open(TerminalSession terminal) {
      this.terminal = terminal;
    }
  }

  /** Publishes one session's chunks in order; called on celld's reader thread, so it must not block. */
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
      publish(new TerminalChunk(id, seq.getAndIncrement(), data, null));
    }

    void last(int exitCode) {
      publish(new TerminalChunk(id, seq.getAndIncrement(), null, exitCode));
    }

    private void publish(TerminalChunk chunk) {
      if (nats.connected()) {
        nats.connection().publish(subject, codec.encode(chunk));
      }
    }
  }
}
