package dev.workcell.terminal.openterminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.terminal.config.TerminalServiceSettings;
import dev.workcell.terminal.sandbox.client.RemoteTerminal;
import dev.workcell.terminal.sandbox.client.SandboxTerminals;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Open Terminal's terminals (upstream 0.11.34's {@code /api/terminals}): each belongs to the user who
 * created it and runs in that user's home sandbox; another user's id is simply unknown. A session
 * ends when its shell exits, when it is deleted, or when its WebSocket closes (as upstream).
 */
@ApplicationScoped
public class OpenTerminalSessions {

  /** What upstream answers for a terminal: {@code {id, created_at, pid}}. */
  public record TerminalInfo(String id, String created_at, long pid) {}

  public record Session(String userId, RemoteTerminal terminal, String createdAt, Instant opened) {

    TerminalInfo info() {
      return new TerminalInfo(terminal.id(), createdAt, terminal.pid());
    }
  }

  private final SandboxTerminals terminals;
  private final TerminalServiceSettings settings;
  private final Vertx vertx;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  public OpenTerminalSessions(SandboxTerminals terminals, TerminalServiceSettings settings, Vertx vertx) {
    this.terminals = terminals;
    this.settings = settings;
    this.vertx = vertx;
  }

  void start(@Observes StartupEvent event) {
    // A terminal created and never connected would hold a shell and a runtime lease forever.
    vertx.setPeriodic(60_000, id -> sessions.values().stream()
        .filter(s -> s.opened().plus(settings.unattachedTimeout()).isBefore(Instant.now()))
        .filter(s -> !attached.containsKey(s.terminal().id()))
        .forEach(s -> delete(s.userId(), s.terminal().id()).subscribe().with(ok -> {}, e -> {})));
  }

  private final Map<String, Boolean> attached = new ConcurrentHashMap<>();

  public Uni<TerminalInfo> create(String userId) {
    prune();
    long mine = sessions.values().stream().filter(s -> s.userId().equals(userId)).count();
    if (mine >= settings.maxSessions()) {
      throw new WorkcellException(ErrorCode.TOO_MANY_TERMINALS,
          "Maximum number of terminal sessions (" + settings.maxSessions() + ") reached");
    }
    return terminals.open(SandboxRef.home(userId), 80, 24).map(terminal -> {
      String created = DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.MICROS)).replace("Z", "") + "Z";
      Session session = new Session(userId, terminal, created, Instant.now());
      sessions.put(terminal.id(), session);
      terminal.ended().whenComplete((code, e) -> {
        sessions.remove(terminal.id());
        attached.remove(terminal.id());
      });
      return session.info();
    });
  }

  public List<TerminalInfo> list(String userId) {
    prune();
    return sessions.values().stream().filter(s -> s.userId().equals(userId))
        .sorted(Comparator.comparing(Session::opened)).map(Session::info).toList();
  }

  public Optional<TerminalInfo> get(String userId, String id) {
    return find(userId, id).map(Session::info);
  }

  /** The live session {@code id} of {@code userId} (null user: whoever owns it, the id being the handle). */
  public Optional<Session> find(String userId, String id) {
    Session session = id == null ? null : sessions.get(id);
    if (session == null || session.terminal().isEnded() || (userId != null && !session.userId().equals(userId))) {
      return Optional.empty();
    }
    return Optional.of(session);
  }

  /** Marks the session connected; false when it already has a WebSocket. */
  public boolean attach(Session session) {
    return attached.putIfAbsent(session.terminal().id(), Boolean.TRUE) == null;
  }

  public Uni<Boolean> delete(String userId, String id) {
    Optional<Session> session = find(userId, id);
    if (session.isEmpty()) {
      return Uni.createFrom().item(false);
    }
    sessions.remove(id);
    return session.get().terminal().close().replaceWith(true);
  }

  private void prune() {
    sessions.values().removeIf(s -> s.terminal().isEnded());
  }
}
