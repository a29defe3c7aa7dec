package dev.workcell.gateway.openterminal.rest;

import dev.workcell.gateway.openterminal.service.ToolDocument;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** What needs no key, as upstream: liveness, feature flags, and the tool document. */
@Path(TerminalApi.BASE)
@Produces(MediaType.APPLICATION_JSON)
public class TerminalMetaResource {

  private final ToolDocument document;

  public TerminalMetaResource(ToolDocument document) {
    this.document = document;
  }

  @GET
  @Path("/health")
  public Map<String, String> health() {
    return Map.of("status", "ok");
  }

  /** Interactive terminals (served by terminal-service); no notebooks here (see docs/open-terminal.md); the system prompt is not offered. */
  @GET
  @Path("/api/config")
  public Map<String, Map<String, Boolean>> config() {
    return Map.of("features", Map.of("terminal", true, "notebooks", false, "system", false));
  }

  @GET
  @Path("/openapi.json")
  public byte[] openapi() {
    return document.json();
  }
}
