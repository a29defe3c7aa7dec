package dev.workcell.gateway.openterminal.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The OpenAPI document OpenWebUI turns into tools: Open Terminal 0.11.34's twelve operations with
 * their parameters and bodies unchanged (a contract test holds it to the reference), served
 * relative to {@code /api/open-terminal}, with descriptions that say where commands run here.
 */
@ApplicationScoped
public class ToolDocument {

  private static final String RUN_COMMAND = "Run a shell command in the background and return a command ID.\n\n"
      + "It runs in your own Linux sandbox as uid 1000 with /bin/bash; your home directory is /home/user and persists "
      + "between sessions. python3, git and the usual command-line tools are available.";

  private final byte[] document;

  public ToolDocument(ObjectMapper mapper) {
    try (InputStream in = ToolDocument.class.getResourceAsStream("/open-terminal/openapi.json")) {
      ObjectNode root = (ObjectNode) mapper.readTree(in);
      root.putArray("servers").addObject().put("url", "/api/open-terminal")
          .put("description", "Workcell: every X-User-Id works in a hardened sandbox of their own");
      ((ObjectNode) root.path("info")).put("description",
          "A remote terminal API (Open Terminal 0.11.34 compatible), served by Workcell with one sandbox per user.");
      ((ObjectNode) root.path("paths").path("/execute").path("post")).put("description", RUN_COMMAND);
      this.document = mapper.writeValueAsBytes(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public byte[] json() {
    return document;
  }
}
