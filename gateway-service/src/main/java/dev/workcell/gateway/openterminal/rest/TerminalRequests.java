package dev.workcell.gateway.openterminal.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.workcell.contracts.Bulk;
import java.util.List;
import java.util.Map;

/** Request bodies of the Open Terminal API, field for field as upstream names them. */
public final class TerminalRequests {

  private TerminalRequests() {}

  public record WriteRequest(String path, @Bulk String content) {}

  public record ReplacementChunk(String target, String replacement, @JsonProperty("start_line") Integer startLine,
      @JsonProperty("end_line") Integer endLine, @JsonProperty("allow_multiple") Boolean allowMultiple) {}

  public record ReplaceRequest(String path, List<ReplacementChunk> replacements) {}

  public record ExecRequest(String command, String cwd, Map<String, String> env) {}

  public record InputRequest(String input) {}

  /** mkdir and POST /files/cwd. */
  public record PathRequest(String path) {}

  public record MoveRequest(String source, String destination) {}

  public record ArchiveRequest(List<String> paths) {}
}
