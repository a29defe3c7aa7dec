package dev.workcell.terminal.work.web;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.messaging.relay.RelayProblem;
import dev.workcell.terminal.config.TerminalServiceSettings;
import dev.workcell.terminal.sandbox.client.RemoteTerminal;
import dev.workcell.terminal.socket.web.TerminalBridge;
import dev.workcell.terminal.work.service.AccessGate;
import dev.workcell.terminal.work.service.WorkTerminals;
import dev.workcell.terminal.work.service.WorkTerminals.Grant;
import io.quarkus.logging.Log;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * {@code /ws/work-terminal?ticket=…&taskId=…[&cols=&rows=]}: the Work terminal's WebSocket (the
 * gateway relays it here after its Origin check). Refusals come before the upgrade, as problems:
 * 401 for a used, expired or foreign ticket, 409 {@code run_active}, 429 {@code too_many_terminals}.
 * Once open, the account is re-checked before input ({@link AccessGate}) and every
 * {@code recheck-interval}: a failed check closes with 4003 and kills the shell; and
 * {@code WORK_TERMINAL_IDLE_TIMEOUT_MS} without input or output closes with 4000.
 */
@ApplicationScoped
public class WorkTerminalRoute {

  public static final String PATH = "/ws/work-terminal";

  private final WorkTerminals work;
  private final TerminalServiceSettings settings;
  private final Vertx vertx;

  public WorkTerminalRoute(WorkTerminals work, TerminalServiceSettings settings, Vertx vertx) {
    this.work = work;
    this.settings = settings;
    this.vertx = vertx;
  }

  void install(@Observes Router router) {
    router.get(PATH).handler(ctx -> {
      HttpServerRequest request = ctx.request();
      if (!"websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
        RelayProblem.send(request, ErrorCode.INVALID_REQUEST, "a WebSocket upgrade is expected");
        return;
      }
      request.pause();
      Integer cols = size(request.getParam("cols"));
      Integer rows = size(request.getParam("rows"));
      // Back on the request's event loop before the upgrade: upgraded elsewhere (a NATS reply thread),
      // the client's first keystroke could arrive before the socket's handlers are set, and be lost.
      Context context = vertx.getOrCreateContext();
      work.admit(request.getParam("ticket"), request.getParam("taskId"))
          .chain(grant -> work.open(grant, cols, rows).map(terminal -> new Opened(grant, terminal)))
          .subscribe().with(opened -> context.runOnContext(v -> upgrade(request, opened)),
              failure -> context.runOnContext(v -> refuse(request, failure)));
    });
  }

  private record Opened(Grant grant, RemoteTerminal terminal) {}

  private void upgrade(HttpServerRequest request, Opened opened) {
    request.toWebSocket().onSuccess(ws -> watch(ws, opened)).onFailure(e -> {
      Log.debugf("work terminal upgrade failed: %s", e.getMessage());
      opened.terminal().close().subscribe().with(ok -> {}, x -> {});
    });
  }

  private void watch(ServerWebSocket ws, Opened opened) {
    AccessGate gate = new AccessGate(() -> work.recheck(opened.grant()),
        code -> vertx.runOnContext(v -> end(ws, opened, (short) 4003, "access revoked: " + code.code())));
    long idleNanos = settings.work().idleTimeoutMs() * 1_000_000L;
    long timer = vertx.setPeriodic(settings.work().recheckInterval().toMillis(), id -> {
      if (System.nanoTime() - opened.terminal().lastActivity() > idleNanos) {
        end(ws, opened, (short) 4000, "idle timeout");
      } else {
        gate.tick();
      }
    });
    ws.closeHandler(v -> vertx.cancelTimer(timer));
    opened.terminal().ended().whenComplete((code, e) -> vertx.cancelTimer(timer));
    TerminalBridge.join(ws, opened.terminal(), gate);
  }

  private static void end(ServerWebSocket ws, Opened opened, short code, String reason) {
    opened.terminal().close().subscribe().with(ok -> {}, e -> {});
    if (!ws.isClosed()) {
      ws.close(code, reason);
    }
  }

  private static void refuse(HttpServerRequest request, Throwable failure) {
    if (failure instanceof WorkcellException known) {
      ErrorCode code = AccessGate.REVOKED.contains(known.code()) && known.code() != ErrorCode.NOT_FOUND ? ErrorCode.UNAUTHENTICATED : known.code();
      RelayProblem.send(request, code, known.getMessage());
    } else {
      Log.errorf(failure, "work terminal open failed");
      RelayProblem.send(request, ErrorCode.INTERNAL, "internal error in terminal-service");
    }
  }

  private static Integer size(String value) {
    try {
      int n = value == null ? -1 : Integer.parseInt(value);
      return n >= 1 && n <= 1000 ? n : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
