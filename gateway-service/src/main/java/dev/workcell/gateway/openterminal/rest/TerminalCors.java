package dev.workcell.gateway.openterminal.rest;

import dev.workcell.gateway.openterminal.config.TerminalSettings;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Set;

/**
 * CORS for the Open Terminal API alone (OpenWebUI's user-configured terminals call it from the
 * browser), so the Work API keeps answering no cross-origin caller. Off unless origins are configured.
 * A route of the HTTP layer, not a REST filter: streamed downloads and answers the HTTP layer gives
 * itself (401, 413) carry the headers too, and a browser can read them.
 */
@ApplicationScoped
public class TerminalCors {

  private static final String METHODS = "GET, POST, DELETE, OPTIONS";
  private static final String MAX_AGE_SECONDS = "600";
  private static final String EXPOSED = "Content-Disposition, Content-Length, Retry-After";

  private final Set<String> origins;

  public TerminalCors(TerminalSettings settings) {
    this.origins = Set.copyOf(settings.corsOrigins().orElse(List.of()).stream()
        .map(String::strip).filter(origin -> !origin.isEmpty()).toList());
  }

  void install(@Observes Router router) {
    if (!origins.isEmpty()) {
      // Ahead of every other route: a preflight carries no key, and refusals must be readable too.
      router.route(TerminalApi.BASE + "*").order(Integer.MIN_VALUE).handler(this::handle);
    }
  }

  private void handle(RoutingContext context) {
    String origin = context.request().getHeader(HttpHeaders.ORIGIN);
    if (origin == null || !(origins.contains(origin) || origins.contains("*"))) {
      context.next();
      return;
    }
    MultiMap headers = context.response().headers();
    headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, origin)
        .set(HttpHeaders.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true")
        .set(HttpHeaders.VARY, HttpHeaders.ORIGIN);
    String method = context.request().getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD);
    if (context.request().method() == HttpMethod.OPTIONS && method != null) {
      headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, METHODS)
          .set(HttpHeaders.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS);
      String requested = context.request().getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS);
      if (requested != null) {
        headers.set(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, requested);
      }
      context.response().setStatusCode(204).end();
      return;
    }
    headers.set(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
    context.next();
  }
}
