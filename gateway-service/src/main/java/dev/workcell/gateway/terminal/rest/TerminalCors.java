package dev.workcell.gateway.terminal.rest;

import dev.workcell.gateway.terminal.config.TerminalSettings;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * CORS for the Open Terminal API alone (OpenWebUI's user-configured terminals call it from the
 * browser), so the Work API keeps answering no cross-origin caller. Off unless origins are configured.
 */
public class TerminalCors {

  private static final String ORIGIN = "Origin";
  private static final String METHODS = "GET, POST, DELETE, OPTIONS";
  private static final String MAX_AGE_SECONDS = "600";

  private final Set<String> origins;

  public TerminalCors(TerminalSettings settings) {
    this.origins = Set.copyOf(settings.corsOrigins().orElse(List.of()).stream()
        .map(String::strip).filter(origin -> !origin.isEmpty()).toList());
  }

  /** A preflight is answered here, before the key check: browsers send it without Authorization. */
  @ServerRequestFilter(preMatching = true)
  public Response preflight(ContainerRequestContext request) {
    String origin = allowed(request);
    if (origin == null || !HttpMethod.OPTIONS.equals(request.getMethod())
        || request.getHeaderString("Access-Control-Request-Method") == null) {
      return null; // not a preflight this API answers: carry on
    }
    Response.ResponseBuilder answer = Response.noContent()
        .header("Access-Control-Allow-Origin", origin)
        .header("Access-Control-Allow-Credentials", "true")
        .header("Vary", ORIGIN)
        .header("Access-Control-Allow-Methods", METHODS)
        .header("Access-Control-Max-Age", MAX_AGE_SECONDS);
    String headers = request.getHeaderString("Access-Control-Request-Headers");
    if (headers != null) {
      answer.header("Access-Control-Allow-Headers", headers);
    }
    return answer.build();
  }

  @ServerResponseFilter
  public void allowOrigin(ContainerRequestContext request, ContainerResponseContext response) {
    String origin = allowed(request);
    if (origin != null) {
      MultivaluedMap<String, Object> headers = response.getHeaders();
      headers.putSingle("Access-Control-Allow-Origin", origin);
      headers.putSingle("Access-Control-Allow-Credentials", "true");
      headers.putSingle("Access-Control-Expose-Headers", "Content-Disposition, Content-Length, Retry-After");
      if (!headers.containsKey("Vary")) {
        headers.putSingle("Vary", ORIGIN);
      }
    }
  }

  /** The request's origin when it is an allowed one on this API, else null. */
  private String allowed(ContainerRequestContext request) {
    if (origins.isEmpty()) {
      return null;
    }
    String path = request.getUriInfo().getPath();
    if (!path.equals(TerminalApi.BASE) && !path.startsWith(TerminalApi.BASE + "/")) {
      return null;
    }
    String origin = request.getHeaderString(ORIGIN);
    return origin != null && (origins.contains(origin) || origins.contains("*")) ? origin : null;
  }
}
