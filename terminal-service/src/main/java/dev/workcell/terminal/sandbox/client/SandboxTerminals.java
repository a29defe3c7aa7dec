package dev.workcell.terminal.sandbox.client;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.TerminalApi.OpenTerminal;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalAck;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalChunk;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalClose;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.messaging.InstanceWatch;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.messaging.stream.PushedStreams;
import dev.workcell.terminal.config.TerminalServiceSettings;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;

/**
 * Opens terminals in sandboxes through sandbox-service (NATS, decision 0017): subscribes to the new
 * session's output subject first, then asks for the open, so the shell's first bytes are not missed.
 * Keeps every open session alive towards sandbox-service with a keepalive, and ends it as lost when
 * the sandbox-service instance that holds it is gone ({@link PushedStreams}).
 */
@ApplicationScoped
public class SandboxTerminals {

  private static final Actor SELF = Actor.service(ServiceName.TERMINAL);
  private static final Duration OPEN_DEADLINE = Duration.ofSeconds(60);

  private final NatsRequester requester;
  private final Vertx vertx;
  private final TerminalServiceSettings settings;
  private final PushedStreams<TerminalChunk> streams;
  private long keepalive = -1;

  public SandboxTerminals(NatsConnection nats, NatsRequester requester, MessageCodec codec, InstanceWatch watch,
      Vertx vertx, TerminalServiceSettings settings) {
    this.requester = requester;
    this.vertx = vertx;
    this.settings = settings;
    this.streams = new PushedStreams<>("terminal", TerminalChunk.class, SandboxSubjects.TERMINAL_OUTPUT::subject,
        nats, requester, codec, watch);
  }

  void start(@Observes StartupEvent event) {
    keepalive = vertx.setPeriodic(settings.keepalive().toMillis(), id -> streams.ids().forEach(terminal -> publishAck(terminal, 0)));
  }

  void stop(@Observes ShutdownEvent event) {
    vertx.cancelTimer(keepalive);
    streams.ids().forEach(this::closeQuietly);
  }

  /** Opens a shell in {@code sandbox} ({@code /workspace} for a task, the home for a user). */
  public Uni<RemoteTerminal> open(SandboxRef sandbox, Integer cols, Integer rows) {
    String id = PushedStreams.newId();
    RemoteTerminal terminal = new RemoteTerminal(id, this);
    return streams.open(id, terminal::chunk, terminal::lost, SandboxSubjects.TERMINAL_OPEN,
            new OpenTerminal(sandbox, id, cols, rows), SELF, OPEN_DEADLINE)
        .map(opened -> {
          terminal.pid = opened.pid();
          return terminal;
        })
        .onFailure().invoke(failure -> {
          // The open may still succeed late (a deadline passed): close whatever started under this id.
          closeQuietly(id);
          terminal.end(-1);
        });
  }

  /** How many terminals this instance holds. */
  public int size() {
    return streams.ids().size();
  }

  <Q, R> Uni<R> call(Subject<Q, R> subject, Q body) {
    return requester.request(subject, body, SELF);
  }

  /** Output credit (0 bytes: a keepalive) for terminal {@code id}. */
  void publishAck(String id, int bytes) {
    streams.publish(SandboxSubjects.TERMINAL_ACK.pattern(), new TerminalAck(id, bytes));
  }

  void closeQuietly(String id) {
    call(SandboxSubjects.TERMINAL_CLOSE, new TerminalClose(id)).subscribe().with(
        ok -> {}, e -> Log.debugf("closing terminal %s: %s", id, e.getMessage()));
  }

  void forget(RemoteTerminal terminal) {
    streams.forget(terminal.id());
  }
}
