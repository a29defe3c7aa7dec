package dev.workcell.gateway.openterminal.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.gateway.openterminal.config.TerminalSettings;
import dev.workcell.messaging.relay.HttpRelay;
import dev.workcell.messaging.relay.RelayProblem;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * Keeps the gateway the one public origin for interactive terminals, as for previews (decision
 * 0018): Open Terminal's {@code /api/open-terminal/api/terminals/**} (HTTP and the WebSocket) and the
 * Work terminal's {@code /ws/work-terminal} are relayed as they are to terminal-service, which owns
 * the sessions and checks the key (its WebSocket's first message carries it) or the one-time ticket.
 * CORS for the Open Terminal paths is still answered here first ({@link TerminalCors} runs earlier).
 */
@ApplicationScoped
public class TerminalForward {

  static final String TERMINALS = TerminalApi.BASE + "/api/terminals";
  static final String WORK_TERMINAL = "/ws/work-terminal";

  private final TerminalSettings settings;
  private final Vertx vertx;

  public TerminalForward(TerminalSettings settings, Vertx vertx) {
    this.settings = settings;
    this.vertx = vertx;
  }

  void install(@Observes Router router) {
    HttpRelay relay = new HttpRelay(vertx, 64, 5_000);
    String host = settings.serviceUrl().getHost();
    int port = settings.serviceUrl().getPort();
    Handler<RoutingContext> forward = context -> {
      var request = context.request();
      request.pause();
      relay.relay(request, host, port, request.uri(), HttpRelay.AS_IS, (in, e) ->
          RelayProblem.send(in, ErrorCode.SERVICE_UNAVAILABLE, "terminal-service is not reachable"));
    };
    router.route(TERMINALS).order(-100).handler(forward);
    router.route(TERMINALS + "/*").order(-100).handler(forward);
    router.route(WORK_TERMINAL).order(-100).handler(context -> {
      String origin = context.request().getHeader("Origin");
      if (origin != null && !sameOrigin(origin, context.request().scheme(), context.request().getHeader("Host"))
          && !settings.workOrigins().orElse(List.of()).contains(origin)) {
        // Cross-site WebSocket hijacking: a page elsewhere must not open a shell with a ticket it obtained.
        RelayProblem.send(context.request(), ErrorCode.FORBIDDEN, "This origin may not open the Work terminal: " + origin);
        return;
      }
      forward.handle(context);
    });
  }

  private static boolean sameOrigin(String origin, String scheme, String host) {
    return host != null && origin.equalsIgnoreCase(scheme + "://" + host);
  }
}
