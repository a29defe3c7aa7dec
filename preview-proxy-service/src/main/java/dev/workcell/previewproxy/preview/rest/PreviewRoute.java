package dev.workcell.previewproxy.preview.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.preview.PreviewToken;
import dev.workcell.messaging.relay.HttpRelay;
import dev.workcell.messaging.relay.RelayProblem;
import dev.workcell.previewproxy.preview.config.PreviewProxySettings;
import dev.workcell.previewproxy.preview.service.PreviewHardening;
import dev.workcell.previewproxy.preview.service.PreviewKey;
import dev.workcell.previewproxy.preview.service.PreviewTargets;
import dev.workcell.previewproxy.preview.service.PreviewTargets.Target;
import io.quarkus.logging.Log;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code /api/work/previews/<token>/<path>}: verifies the signed link (signature, expiry), asks
 * {@link PreviewTargets} whether its preview still runs, and relays the request (HTTP or WebSocket)
 * to {@code /<path>} of the preview with {@link PreviewHardening}. Every refusal is a 403 problem.
 */
@ApplicationScoped
public class PreviewRoute {

  private final PreviewKey key;
  private final PreviewTargets targets;
  private final PreviewProxySettings settings;
  private final Vertx vertx;
  private final Clock clock;

  public PreviewRoute(PreviewProxySettings settings, PreviewKey key, PreviewTargets targets, Vertx vertx) {
    this.key = key;
    this.targets = targets;
    this.settings = settings;
    this.vertx = vertx;
    this.clock = Clock.systemUTC();
  }

  void install(@Observes Router router) {
    HttpRelay relay = new HttpRelay(vertx, settings.connectionsPerPreview(), (int) settings.connectTimeout().toMillis());
    router.route(PreviewToken.PATH_PREFIX + "*").handler(context -> handle(context.request(), relay));
  }

  private void handle(HttpServerRequest request, HttpRelay relay) {
    request.pause(); // nothing of the body is read before the link is checked
    String rest = request.path().substring(PreviewToken.PATH_PREFIX.length());
    int slash = rest.indexOf('/');
    String token = slash < 0 ? rest : rest.substring(0, slash);
    if (!key.configured()) {
      RelayProblem.send(request, ErrorCode.PREVIEW_LINK_INVALID, "preview links are not configured");
      return;
    }
    PreviewToken link;
    try {
      link = key.verify(token, clock.instant());
    } catch (PreviewToken.RefusedException e) {
      RelayProblem.send(request, e.code, e.getMessage());
      return;
    }
    if (slash < 0) { // the page's relative URLs resolve against the link's directory
      request.response().setStatusCode(308).putHeader("Location", PreviewToken.PATH_PREFIX + token + "/" + query(request))
          .putHeader("Cache-Control", "no-store").end();
      request.resume();
      return;
    }
    String upstreamUri = rest.substring(slash) + query(request);
    CompletableFuture<Target> check = targets.of(link).toCompletableFuture();
    if (check.isDone()) { // answered from the check cache: relay now, not one event-loop turn later
      Target target;
      try {
        target = check.join();
      } catch (CompletionException failure) { // join() wraps the check's failure; proceed() unwraps it
        proceed(request, relay, link, upstreamUri, null, failure);
        return;
      }
      proceed(request, relay, link, upstreamUri, target, null);
      return;
    }
    Context context = vertx.getOrCreateContext(); // the check may answer on a NATS thread
    check.whenComplete((target, failure) -> context.runOnContext(v -> proceed(request, relay, link, upstreamUri, target, failure)));
  }

  private void proceed(HttpServerRequest request, HttpRelay relay, PreviewToken link, String upstreamUri, Target target,
      Throwable failure) {
    if (failure != null) {
      Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
      if (cause instanceof WorkcellException w && w.code() == ErrorCode.PREVIEW_REVOKED) {
        RelayProblem.send(request, ErrorCode.PREVIEW_REVOKED, w.getMessage());
      } else {
        Log.warnf("preview check of task %s failed: %s", link.taskId(), cause.toString());
        RelayProblem.send(request, ErrorCode.SERVICE_UNAVAILABLE, "cannot check the preview now");
      }
      return;
    }
    relay.relay(request, target.host(), target.port(), upstreamUri, PreviewHardening.INSTANCE, (in, e) -> {
      Log.debugf("preview of task %s unreachable: %s", link.taskId(), e);
      RelayProblem.send(in, ErrorCode.PREVIEW_UNREACHABLE, "the preview does not answer");
    });
  }

  private static String query(HttpServerRequest request) {
    return request.query() == null ? "" : "?" + request.query();
  }
}
