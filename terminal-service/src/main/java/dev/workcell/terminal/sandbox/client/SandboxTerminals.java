package dev.workcell.terminal.sandbox.client;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.TerminalApi.OpenTerminal;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalChunk;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalClose;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.terminal.config.TerminalServiceSettings;
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

/**
 * Opens terminals in sandboxes through sandbox-service (NATS, decision 0017): subscribes to the new
 * session's output subject first, then asks for the open, so the shell's first bytes are not missed.
 * Keeps every open session alive towards sandbox-service with a keepalive.
 */
@ApplicationScoped
public class SandboxTerminals {

  private static final Actor SELF = Actor.service(ServiceName.TERMINAL);
  private static final Duration OPEN_DEADLINE = Duration.ofSeconds(60);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final NatsConnection nats;
  private final NatsRequester requester;
  private final MessageCodec codec;
  private final Vertx vertx;
  private final TerminalServiceSettings settings;
  private final Map<String, Open> open = new ConcurrentHashMap<>();
  private volatile Dispatcher dispatcher;
  private long keepalive = -1;

  public SandboxTerminals(NatsConnection nats, NatsRequester requester, MessageCodec codec, Vertx vertx,
      TerminalServiceSettings settings) {
    this.nats = nats;
    this.requester = requester;
    this.codec = codec;
    this.vertx = vertx;
    this.settings = settings;
  }

  void start(@Observes StartupEvent event) {
    keepalive = vertx.setPeriodic(settings.keepalive().toMillis(), id -> open.values().forEach(o -> o.terminal.keepalive()));
  }

  void stop(@Observes ShutdownEvent event) {
    vertx.cancelTimer(keepalive);
    open.values().forEach(o -> closeQuietly(o.terminal));
  }

  /** Opens a shell in {@code sandbox} ({@code /workspace} for a task, the home for a user). */
  public Uni<RemoteTerminal> open(SandboxRef sandbox, Integer cols, Integer rows) {
    String id = newId();
    RemoteTerminal terminal = new RemoteTerminal(id, this);
    Subscription subscription = dispatcher().subscribe(SandboxSubjects.TERMINAL_OUTPUT.subject(id), message -> {
      TerminalChunk chunk;
      try {
        chunk = codec.decode(message.getData(), TerminalChunk.class);
      } catch (RuntimeException e) {
        Log.warnf("terminal %s: unreadable output chunk: %s", id, e.getMessage());
        return;
      }
      terminal.chunk(chunk);
    });
    open.put(id, new Open(terminal, subscription));
    return requester.request(SandboxSubjects.TERMINAL_OPEN, new OpenTerminal(sandbox, id, cols, rows), SELF, OPEN_DEADLINE)
        .map(opened -> {
          terminal.pid = opened.pid();
          return terminal;
        })
        .onFailure().invoke(failure -> {
          // The open may still succeed late (a deadline passed): close whatever started under this id.
          closeQuietly(terminal);
          terminal.end(-1);
        });
  }

  /** How many terminals this instance holds. */
  public int size() {
    return open.size();
  }

  <Q, R> Uni<R> call(Subject<Q, R> subject, Q body) {
    return requester.request(subject, body, SELF);
  }

  void publish(String subject, Object body) {
    if (nats.connected()) {
      nats.connection().publish(subject, codec.encode(body));
    }
  }

  void closeQuietly(RemoteTerminal terminal) {
    call(SandboxSubjects.TERMINAL_CLOSE, new TerminalClose(terminal.id())).subscribe().with(
        ok -> {}, e -> Log.debugf("closing terminal %s: %s", terminal.id(), e.getMessage()));
  }

  void forget(RemoteTerminal terminal) {
    Open gone = open.remove(terminal.id());
    if (gone != null && dispatcher != null) {
      dispatcher.unsubscribe(gone.subscription);
    }
  }

  private synchronized Dispatcher dispatcher() {
    if (dispatcher == null) {
      dispatcher = nats.connection().createDispatcher();
    }
    return dispatcher;
  }

  /** 128 random bits, a valid subject token: the session's only handle, so it must not be guessable. */
  private static String newId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private record Open(RemoteTerminal terminal, Subscription subscription) {}
}
