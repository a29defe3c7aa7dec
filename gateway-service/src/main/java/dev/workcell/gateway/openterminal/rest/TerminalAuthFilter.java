package dev.workcell.gateway.openterminal.rest;

import dev.workcell.gateway.openterminal.config.TerminalSettings;
import dev.workcell.gateway.openterminal.service.TerminalKey;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.Optional;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The Open Terminal API's own bearer key, checked before any of its resources runs. It is not the
 * Work API's JWT: these endpoints carry no {@code @Authenticated}, and proactive auth is off.
 */
public class TerminalAuthFilter {

  /** As upstream: liveness, feature flags and the tool document need no key. */
  private static final Set<String> OPEN = Set.of("/health", "/api/config", "/openapi.json");

  private final TerminalKey key;
  private final Optional<String> singleUser;

  public TerminalAuthFilter(TerminalKey key, TerminalSettings settings) {
    this.key = key;
    this.singleUser = settings.singleUserId().map(String::strip).filter(id -> !id.isEmpty());
  }

  @ServerRequestFilter
  public void authenticate(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath();
    if (!path.equals(TerminalApi.BASE) && !path.startsWith(TerminalApi.BASE + "/")) {
      return;
    }
    if (!OPEN.contains(path.substring(TerminalApi.BASE.length()))) {
      key.verify(request.getHeaderString("Authorization"));
      // Single-user mode: a direct connection (a browser sends only the key) works as the configured user.
      String user = request.getHeaderString(TerminalApi.USER);
      if (singleUser.isPresent() && (user == null || user.isBlank())) {
        request.getHeaders().putSingle(TerminalApi.USER, singleUser.get());
      }
    }
  }
}
