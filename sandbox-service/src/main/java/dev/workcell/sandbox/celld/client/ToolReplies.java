package dev.workcell.sandbox.celld.client;

import static dev.workcell.sandbox.celld.client.CelldReplies.array;
import static dev.workcell.sandbox.celld.client.CelldReplies.bool;
import static dev.workcell.sandbox.celld.client.CelldReplies.clip;
import static dev.workcell.sandbox.celld.client.CelldReplies.malformed;
import static dev.workcell.sandbox.celld.client.CelldReplies.number;
import static dev.workcell.sandbox.celld.client.CelldReplies.requireObject;
import static dev.workcell.sandbox.celld.client.CelldReplies.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.sandbox.FileBytes;
import dev.workcell.contracts.sandbox.GlobResult;
import dev.workcell.contracts.sandbox.GlobResult.GlobMatch;
import dev.workcell.contracts.sandbox.GrepResult;
import dev.workcell.contracts.sandbox.PortList;
import dev.workcell.contracts.sandbox.PortList.ListeningPort;
import dev.workcell.contracts.sandbox.ProcessList;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.ProcessView.OutputEntry;
import dev.workcell.contracts.sandbox.SearchHit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/** Strict readers of the results of celld's read_bytes, grep, glob, proc_* and ports ops (see {@link CelldReplies}). */
public final class ToolReplies {

  /** celld walks at most 64 levels of names of at most 255 bytes. */
  private static final int WALK_PATH_MAX_CHARS = 64 * 256;
  private static final int RESULTS_MAX = 1_000;
  private static final int VERSION_MAX_CHARS = 128;
  private static final int PROCESS_ID_MAX_CHARS = 32;
  /** celld keeps 1 MiB of output per process, in chunks of at most 16 KiB (plus one for a split character). */
  private static final int PROCESS_OUTPUT_MAX_CHARS = (1 << 20) + (16 << 10);
  private static final int PROCESS_ENTRIES_MAX = 1 << 20;
  private static final int PROCESSES_MAX = 64;
  private static final int PORTS_MAX = 1_024;
  private static final int PROCESS_NAME_MAX_CHARS = 256;
  private static final Set<String> ENTRY_TYPES = Set.of("file", "dir", "symlink", "other");
  private static final Set<String> PROCESS_STATES = Set.of("running", "done", "killed");

  private ToolReplies() {}

  public static FileBytes fileBytes(String path, JsonNode result) {
    String encoded = text(result, "data", 4 * Math.ceilDiv(Limits.FILE_MAX_BYTES, 3));
    byte[] data;
    try {
      data = Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      throw malformed("data is not base64");
    }
    long length = number(result, "length", 0, Limits.FILE_MAX_BYTES);
    if (length != data.length) {
      throw malformed("length " + length + " does not match " + data.length + " bytes of data");
    }
    return new FileBytes(path, data, number(result, "offset", 0, Long.MAX_VALUE), number(result, "size", 0, Long.MAX_VALUE),
        bool(result, "eof"), text(result, "version", VERSION_MAX_CHARS));
  }

  public static GrepResult grep(JsonNode result) {
    JsonNode matches = array(result, "matches", RESULTS_MAX);
    List<SearchHit> out = new ArrayList<>(matches.size());
    for (JsonNode hit : matches) {
      requireObject(hit, "match");
      String line = text(hit, "text", 4 * Limits.SEARCH_LINE_MAX_CHARS);
      out.add(new SearchHit(text(hit, "path", WALK_PATH_MAX_CHARS), (int) number(hit, "line", 1, Integer.MAX_VALUE),
          line.codePointCount(0, line.length()) > Limits.SEARCH_LINE_MAX_CHARS ? clip(line, Limits.SEARCH_LINE_MAX_CHARS) : line));
    }
    return new GrepResult(out, bool(result, "truncated"));
  }

  public static GlobResult glob(JsonNode result) {
    JsonNode matches = array(result, "matches", RESULTS_MAX);
    List<GlobMatch> out = new ArrayList<>(matches.size());
    for (JsonNode match : matches) {
      requireObject(match, "match");
      String type = text(match, "type", 16);
      if (!ENTRY_TYPES.contains(type)) {
        throw malformed("match type " + type);
      }
      out.add(new GlobMatch(text(match, "path", WALK_PATH_MAX_CHARS), type, number(match, "size", 0, Long.MAX_VALUE),
          number(match, "mtimeMs", Long.MIN_VALUE, Long.MAX_VALUE)));
    }
    return new GlobResult(out, bool(result, "truncated"));
  }

  public static ProcessView process(JsonNode result) {
    requireObject(result, "process");
    String status = text(result, "status", 16);
    if (!PROCESS_STATES.contains(status)) {
      throw malformed("process status " + status);
    }
    JsonNode output = array(result, "output", PROCESS_ENTRIES_MAX);
    List<OutputEntry> entries = new ArrayList<>(output.size());
    long chars = 0;
    for (JsonNode entry : output) {
      requireObject(entry, "output entry");
      String type = text(entry, "type", 8);
      // "output": a process on a terminal, whose two streams are one.
      if (!"stdout".equals(type) && !"stderr".equals(type) && !"output".equals(type)) {
        throw malformed("output type " + type);
      }
      String data = text(entry, "data", PROCESS_OUTPUT_MAX_CHARS);
      chars += data.length();
      if (chars > PROCESS_OUTPUT_MAX_CHARS) {
        throw malformed("process output exceeds its bound");
      }
      entries.add(new OutputEntry(type, data));
    }
    Integer exitCode = nullableNumber(result, "exitCode", -1, 255 + 128);
    if ("running".equals(status) != (exitCode == null)) {
      throw malformed("exitCode does not fit status " + status);
    }
    Long endedAt = result.path("endedAtMs").isNull() || !result.has("endedAtMs") ? null : number(result, "endedAtMs", 0, Long.MAX_VALUE);
    return new ProcessView(text(result, "id", PROCESS_ID_MAX_CHARS), text(result, "command", Limits.COMMAND_MAX_CHARS * 4),
        status, exitCode, entries, number(result, "nextOffset", 0, Long.MAX_VALUE), bool(result, "truncated"),
        number(result, "startedAtMs", 0, Long.MAX_VALUE), endedAt);
  }

  public static ProcessList processes(JsonNode result) {
    JsonNode processes = array(result, "processes", PROCESSES_MAX);
    List<ProcessView> out = new ArrayList<>(processes.size());
    for (JsonNode process : processes) {
      out.add(process(process));
    }
    return new ProcessList(out);
  }

  /** celld's ports answer: at most 1,024 ports, each 1..65535, ascending as celld sorts them. */
  public static PortList ports(JsonNode result) {
    JsonNode ports = array(result, "ports", PORTS_MAX);
    List<ListeningPort> out = new ArrayList<>(ports.size());
    for (JsonNode port : ports) {
      requireObject(port, "port");
      JsonNode process = port.get("process");
      out.add(new ListeningPort((int) number(port, "port", 1, 65_535), nullableNumber(port, "pid", 1, Integer.MAX_VALUE),
          process == null || process.isNull() ? null : text(port, "process", PROCESS_NAME_MAX_CHARS)));
    }
    return new PortList(out);
  }

  private static Integer nullableNumber(JsonNode node, String field, long min, long max) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    return (int) number(node, field, min, max);
  }
}
