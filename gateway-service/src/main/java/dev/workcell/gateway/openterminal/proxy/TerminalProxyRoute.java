package dev.workcell.gateway.openterminal.proxy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.openterminal.config.TerminalSettings;
import dev.workcell.gateway.openterminal.service.TerminalCaller;
import dev.workcell.gateway.openterminal.service.TerminalKey;
import dev.workcell.messaging.relay.RelayProblem;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Open Terminal's {@code /proxy/{port}/{path}} (decision 0020): the request goes to
 * {@code localhost:{port}/{path}?{query}} inside the caller's own home sandbox, through a port
 * stream relayed by celld — no port is published on the host, and the request names a port only,
 * never a sandbox or an address, so another user's server cannot be named. Upstream's methods,
 * header stripping and answers (422 for a bad port, 502 refused, 504 timeout); bodies stream both
 * ways instead of being buffered. A route of the HTTP layer (as {@code TerminalForward}), so it
 * checks the key itself, as {@code TerminalAuthFilter} does for the REST resources.
 */
@ApplicationScoped
public class TerminalProxyRoute {

  static final String PREFIX = "/api/open-terminal/proxy/";
  private static final Pattern PATH = Pattern.compile("^" + Pattern.quote(PREFIX) + "([^/]*)(/.*)?$");
  private static final Set<HttpMethod> METHODS = Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT,
      HttpMethod.PATCH, HttpMethod.DELETE, HttpMethod.HEAD, HttpMethod.OPTIONS);
  private static final String ALLOW = "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS";

  private final TerminalKey key;
  private final PortStreams streams;
  private final Vertx vertx;
  private final Optional<String> singleUser;

  public TerminalProxyRoute(TerminalKey key, TerminalSettings settings, PortStreams streams, Vertx vertx) {
    this.key = key;
    this.streams = streams;
    this.vertx = vertx;
    this.singleUser = settings.singleUserId().map(String::strip).filter(id -> !id.isEmpty());
  }

  void install(@Observes Router router) {
    router.route(PREFIX + "*").order(-100).handler(this::handle);
  }

  private void handle(RoutingContext context) {
    HttpServerRequest in = context.request();
    Matcher path = PATH.matcher(in.path());
    if (!path.matches()) {
      context.next();
      return;
    }
    in.pause(); // the body waits for the stream
    try {
      key.verify(in.getHeader("Authorization"));
      String user = in.getHeader("X-User-Id");
      if ((user == null || user.isBlank()) && singleUser.isPresent()) {
        user = singleUser.get();
      }
      TerminalCaller caller = TerminalCaller.of(user, in.getHeader("X-Session-Id"));
      if (!METHODS.contains(in.method())) {
        in.response().putHeader("Allow", ALLOW);
        throw new WorkcellException(ErrorCode.METHOD_NOT_ALLOWED, "Method Not Allowed");
      }
      int port = port(path.group(1));
      if (path.group(2) == null) {
        // Upstream's framework redirects to the slash form, where the path is empty.
        String query = in.query() == null ? "" : "?" + in.query();
        in.response().setStatusCode(307).putHeader("Location", in.path() + "/" + query).end();
        return;
      }
      String target = path.group(2) + (in.query() == null || in.query().isEmpty() ? "" : "?" + in.query());
      new ProxyExchange(in, streams, vertx, port).start(caller.sandbox(), target);
    } catch (WorkcellException refused) {
      RelayProblem.send(in, refused.code(), refused.getMessage());
    }
  }

  /** An integer 1..65535 as upstream's {@code port: int}; anything else is its 422. */
  static int port(String text) {
    int port;
    try {
      port = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new WorkcellException(ErrorCode.INVALID_PORT, "Port must be an integer between 1 and 65535");
    }
    if (port < 1 || port > 65535) {
      throw new WorkcellException(ErrorCode.INVALID_PORT, "Port must be between 1 and 65535");
    }
    return port;
  }
}
