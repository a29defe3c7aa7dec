package dev.workcell.terminal.openterminal.web;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.messaging.relay.RelayProblem;
import dev.workcell.terminal.config.TerminalServiceSettings;
import dev.workcell.terminal.openterminal.service.OpenTerminalSessions;
import dev.workcell.terminal.openterminal.service.ServerKey;
import dev.workcell.terminal.socket.web.InputGate;
import dev.workcell.terminal.socket.web.TerminalBridge;
import io.quarkus.logging.Log;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Open Terminal 0.11.34's terminal endpoints, under the gateway's {@code /api/open-terminal} (the
 * gateway relays them here as they are): {@code POST/GET /api/terminals}, {@code GET/DELETE
 * /api/terminals/{id}} with the bearer key, and the WebSocket {@code /api/terminals/{id}} with
 * first-message auth {@code {"type":"auth","token":KEY}} — close 4001 for a bad key, 4004 for an
 * unknown or ended session (another user's included).
 */
@ApplicationScoped
public class OpenTerminalRoutes {

  public static final String BASE = "/api/open-terminal/api/terminals";
  private static final String USER = "X-User-Id";
  private static final int MAX_USER_CHARS = 256;

  private final OpenTerminalSessions sessions;
  private final ServerKey key;
  private final TerminalServiceSettings settings;
  private final Vertx vertx;

  public OpenTerminalRoutes(OpenTerminalSessions sessions, ServerKey key, TerminalServiceSettings settings, Vertx vertx) {
    this.sessions = sessions;
    this.key = key;
    this.settings = settings;
    this.vertx = vertx;
  }

  void install(@Observes Router router) {
    router.post(BASE).handler(ctx -> authorized(ctx, user -> sessions.create(user).subscribe().with(
        info -> json(ctx, 200, info), e -> fail(ctx, e))));
    router.get(BASE).handler(ctx -> authorized(ctx, user -> json(ctx, 200, sessions.list(user))));
    router.get(BASE + "/:id").handler(ctx -> {
      if ("websocket".equalsIgnoreCase(ctx.request().getHeader("Upgrade"))) {
        socket(ctx.request(), ctx.pathParam("id"));
        return;
      }
      authorized(ctx, user -> sessions.get(user, ctx.pathParam("id")).ifPresentOrElse(
          info -> json(ctx, 200, info), () -> notFound(ctx)));
    });
    router.delete(BASE + "/:id").handler(ctx -> authorized(ctx, user -> sessions.delete(user, ctx.pathParam("id"))
        .subscribe().with(found -> {
          if (found) {
            json(ctx, 200, new JsonObject().put("status", "deleted"));
          } else {
            notFound(ctx);
          }
        }, e -> fail(ctx, e))));
  }

  private void authorized(RoutingContext ctx, java.util.function.Consumer<String> action) {
    if (!key.matchesBearer(ctx.request().getHeader("Authorization"))) {
      RelayProblem.send(ctx.request(), ErrorCode.UNAUTHENTICATED, "Invalid API key");
      return;
    }
    Optional<String> user = user(ctx.request());
    if (user.isEmpty()) {
      RelayProblem.send(ctx.request(), ErrorCode.INVALID_REQUEST,
          "The X-User-Id header is required (1..256 characters, no control characters): every user works in a sandbox of their own");
      return;
    }
    try {
      action.accept(user.get());
    } catch (RuntimeException e) {
      fail(ctx, e);
    }
  }

  /** X-User-Id, or the single-user id when configured and the request names nobody. */
  private Optional<String> user(HttpServerRequest request) {
    String user = request.getHeader(USER);
    if (user == null || user.isBlank()) {
      return settings.singleUserId().map(String::strip).filter(id -> !id.isEmpty());
    }
    if (user.length() > MAX_USER_CHARS || user.chars().anyMatch(Character::isISOControl)) {
      return Optional.empty();
    }
    return Optional.of(user);
  }

  /**
   * The session is looked up before the key is checked (as upstream); a user named in X-User-Id must
   * own it. The session's id is a 128-bit random handle, so a socket naming nobody may attach to it
   * once it proves the key.
   */
  private void socket(HttpServerRequest request, String id) {
    String named = request.getHeader(USER);
    var session = sessions.find(named == null || named.isBlank() ? null : named, id);
    request.toWebSocket().onSuccess(ws -> {
      if (session.isEmpty()) {
        // Closed on the client's first message or after a moment, not at once: a relay that is still
        // joining its two sockets (the gateway's) must not miss the close and leave the client waiting.
        long later = vertx.setTimer(500, t -> ws.close((short) 4004, "Session not found"));
        ws.frameHandler(frame -> {
          vertx.cancelTimer(later);
          ws.close((short) 4004, "Session not found");
        });
        return;
      }
      AtomicBoolean authed = new AtomicBoolean();
      long timer = vertx.setTimer(settings.authTimeout().toMillis(), t -> {
        if (!authed.get()) {
          ws.close((short) 4001, "Auth timeout or invalid payload");
        }
      });
      ws.binaryMessageHandler(b -> {
        if (!authed.get()) {
          vertx.cancelTimer(timer);
          ws.close((short) 4001, "Auth timeout or invalid payload");
        }
      });
      ws.textMessageHandler(text -> {
        vertx.cancelTimer(timer);
        if (!key.matches(token(text))) {
          ws.close((short) 4001, "Invalid API key");
          return;
        }
        if (session.get().terminal().isEnded()) {
          ws.close((short) 4004, "Session has ended");
          return;
        }
        if (!sessions.attach(session.get())) {
          ws.close((short) 4004, "Session already connected");
          return;
        }
        authed.set(true);
        TerminalBridge.join(ws, session.get().terminal(), InputGate.OPEN);
      });
    }).onFailure(e -> Log.debugf("terminal upgrade failed: %s", e.getMessage()));
  }

  private static String token(String text) {
    try {
      JsonObject auth = new JsonObject(text);
      return "auth".equals(auth.getString("type")) && auth.getValue("token") instanceof String t ? t : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static void json(RoutingContext ctx, int status, Object body) {
    ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-store").end(Json.encode(body));
  }

  private static void notFound(RoutingContext ctx) {
    RelayProblem.send(ctx.request(), ErrorCode.NOT_FOUND, "Session not found");
  }

  private static void fail(RoutingContext ctx, Throwable failure) {
    if (failure instanceof WorkcellException known) {
      RelayProblem.send(ctx.request(), known.code(), known.getMessage());
    } else {
      Log.errorf(failure, "terminal request failed");
      RelayProblem.send(ctx.request(), ErrorCode.INTERNAL, "internal error in terminal-service");
    }
  }
}
