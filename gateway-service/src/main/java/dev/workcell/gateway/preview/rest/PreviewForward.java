package dev.workcell.gateway.preview.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.preview.PreviewToken;
import dev.workcell.gateway.preview.config.PreviewSettings;
import dev.workcell.messaging.relay.HttpRelay;
import dev.workcell.messaging.relay.RelayProblem;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Keeps the gateway the single public origin: {@code /api/work/previews/**} (HTTP and WebSocket) is
 * relayed as it is to preview-proxy, which checks the signed link and owns all preview hardening
 * (docs/decisions/0018-preview-proxy.md). No bearer token is needed or looked at here: the signed
 * path is the credential, and preview-proxy strips Authorization and cookies before the sandbox.
 */
@ApplicationScoped
public class PreviewForward {

  private final PreviewSettings settings;
  private final Vertx vertx;

  public PreviewForward(PreviewSettings settings, Vertx vertx) {
    this.settings = settings;
    this.vertx = vertx;
  }

  void install(@Observes Router router) {
    HttpRelay relay = new HttpRelay(vertx, settings.proxyConnections(), 5_000);
    String host = settings.proxyUrl().getHost();
    int port = settings.proxyUrl().getPort();
    router.route(PreviewToken.PATH_PREFIX + "*").order(-100).handler(context -> {
      var request = context.request();
      request.pause();
      relay.relay(request, host, port, request.uri(), HttpRelay.AS_IS, (in, e) ->
          RelayProblem.send(in, ErrorCode.SERVICE_UNAVAILABLE, "preview-proxy is not reachable"));
    });
  }
}
