package dev.workcell.gateway.openterminal.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.workcell.contracts.sandbox.ProcessView.OutputEntry;
import java.util.List;

/** Response bodies of the Open Terminal API, shaped as upstream answers them. */
public final class TerminalResponses {

  private TerminalResponses() {}

  public record Entry(String name, String type, long size, double modified, boolean writable) {}

  public record Listing(String dir, boolean writable, List<Entry> entries) {}

  public record TextFile(String path, @JsonProperty("total_lines") int totalLines, String content) {}

  public record Display(String path, boolean exists) {}

  public record Written(String path, long size) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record GrepMatch(String file, Integer line, String content) {}

  public record Grep(String query, String path, List<GrepMatch> matches, boolean truncated) {}

  public record GlobMatch(String path, String type, long size, double modified) {}

  public record Glob(String pattern, String path, List<GlobMatch> matches, boolean truncated) {}

  public record Root(String path, String label) {}

  public record Cwd(String cwd, String home, Root root) {}

  public record CwdSet(String cwd) {}

  public record Uploaded(String path, long size) {}

  public record Created(String path) {}

  public record Deleted(String path, String type) {}

  public record Moved(String source, String destination) {}

  public record Process(String id, String command, String status, @JsonProperty("exit_code") Integer exitCode,
      List<OutputEntry> output, boolean truncated, @JsonProperty("next_offset") long nextOffset,
      @JsonProperty("log_path") String logPath) {}

  public record ProcessSummary(String id, String command, String status, @JsonProperty("exit_code") Integer exitCode,
      @JsonProperty("log_path") String logPath) {}

  public record Status(String status) {}
}
