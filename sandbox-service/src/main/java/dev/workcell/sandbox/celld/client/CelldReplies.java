package dev.workcell.sandbox.celld.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.FileEntry;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.SearchHit;
import dev.workcell.contracts.sandbox.SearchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Strict readers of celld results. Every field is type-checked and bounded; a result that does not
 * fit the contract is refused as {@code internal} rather than passed on to callers.
 */
public final class CelldReplies {

  private static final Set<String> ENTRY_TYPES = Set.of("file", "dir", "symlink", "other");
  private static final int NAME_MAX_CHARS = 1_024;
  private static final int VERSION_MAX_CHARS = 128;

  private CelldReplies() {}

  public static FileList fileList(String path, JsonNode result) {
    JsonNode entries = array(result, "entries", Limits.LIST_MAX_ENTRIES);
    List<FileEntry> out = new ArrayList<>(entries.size());
    for (JsonNode entry : entries) {
      out.add(fileEntry(entry));
    }
    return new FileList(path, out, bool(result, "truncated"));
  }

  public static FileEntry fileEntry(JsonNode entry) {
    requireObject(entry, "entry");
    String type = text(entry, "type", 16);
    if (!ENTRY_TYPES.contains(type)) {
      throw malformed("entry type " + type);
    }
    long mode = number(entry, "mode", 0, 07777);
    String version = entry.has("version") ? text(entry, "version", VERSION_MAX_CHARS) : null;
    return new FileEntry(text(entry, "name", NAME_MAX_CHARS), type, number(entry, "size", 0, Long.MAX_VALUE),
        number(entry, "mtimeMs", Long.MIN_VALUE, Long.MAX_VALUE), (int) mode, version);
  }

  public static FileContent fileContent(String path, JsonNode result) {
    String content = text(result, "content", Limits.FILE_MAX_BYTES);
    return new FileContent(path, content, number(result, "size", 0, Limits.FILE_MAX_BYTES), text(result, "version", VERSION_MAX_CHARS));
  }

  public static FileWritten written(String path, JsonNode result) {
    return new FileWritten(path, text(result, "version", VERSION_MAX_CHARS), number(result, "size", 0, Limits.FILE_MAX_BYTES));
  }

  /** A part written (version null until the last part; a file in parts may exceed one message). */
  public static FileWritten partWritten(String path, boolean last, JsonNode result) {
    return new FileWritten(path, last ? text(result, "version", VERSION_MAX_CHARS) : null, number(result, "size", 0, Long.MAX_VALUE));
  }

  public static boolean flag(JsonNode result, String field) {
    return bool(result, field);
  }

  public static SearchResult search(JsonNode result) {
    JsonNode hits = array(result, "hits", Limits.SEARCH_MAX_HITS);
    List<SearchHit> out = new ArrayList<>(hits.size());
    for (JsonNode hit : hits) {
      requireObject(hit, "hit");
      String line = text(hit, "text", 4 * Limits.SEARCH_LINE_MAX_CHARS);
      out.add(new SearchHit(text(hit, "path", Limits.PATH_MAX_BYTES), (int) number(hit, "line", 1, Integer.MAX_VALUE),
          line.codePointCount(0, line.length()) > Limits.SEARCH_LINE_MAX_CHARS ? clip(line, Limits.SEARCH_LINE_MAX_CHARS) : line));
    }
    return new SearchResult(out, bool(result, "truncated"));
  }

  /** A command result, both streams re-capped together here too: celld's cap is a courtesy, this one is the bound. */
  public static CommandResult commandResult(JsonNode result, int maxOutputChars) {
    // A reply far beyond the cap is not a celld we know: refuse it rather than cut it.
    int bound = 8 * (maxOutputChars + 200);
    CommandOutput.Kept kept = CommandOutput.cap(text(result, "stdout", bound), text(result, "stderr", bound), maxOutputChars);
    return new CommandResult((int) number(result, "exitCode", -1, 255 + 128), kept.stdout(), kept.stderr(),
        bool(result, "truncated") || kept.truncated(), number(result, "durationMs", 0, Long.MAX_VALUE), bool(result, "timedOut"));
  }

  public record PreviewStatus(boolean running, String command, int port) {}

  public static PreviewStatus preview(JsonNode result) {
    return new PreviewStatus(bool(result, "running"), text(result, "command", Limits.COMMAND_MAX_CHARS + 1_100),
        (int) number(result, "port", 0, 65_535));
  }

  public static String pongVersion(JsonNode result) {
    return text(result, "version", 64);
  }

  /** Whether the ping's celld reads bulk request frames: only a literal true says so (an older celld omits it). */
  public static boolean bulkRequests(JsonNode result) {
    JsonNode flag = result.get("bulkRequests");
    return flag != null && flag.isBoolean() && flag.booleanValue();
  }

  static JsonNode array(JsonNode node, String field, int maxItems) {
    JsonNode value = node.get(field);
    if (value == null || !value.isArray()) {
      throw malformed(field + " is not an array");
    }
    if (value.size() > maxItems) {
      throw malformed(field + " has " + value.size() + " items, more than " + maxItems);
    }
    return value;
  }

  static String text(JsonNode node, String field, int maxChars) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw malformed(field + " is not a string");
    }
    if (value.textValue().length() > maxChars) {
      throw malformed(field + " exceeds " + maxChars + " characters");
    }
    return value.textValue();
  }

  static long number(JsonNode node, String field, long min, long max) {
    JsonNode value = node.get(field);
    if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
      throw malformed(field + " is not an integer");
    }
    long n = value.longValue();
    if (n < min || n > max) {
      throw malformed(field + " = " + n + " is out of range");
    }
    return n;
  }

  static boolean bool(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isBoolean()) {
      throw malformed(field + " is not a boolean");
    }
    return value.booleanValue();
  }

  static void requireObject(JsonNode node, String what) {
    if (node == null || !node.isObject()) {
      throw malformed(what + " is not an object");
    }
  }

  static String clip(String value, int maxChars) {
    if (value.length() <= maxChars) {
      return value;
    }
    int end = maxChars;
    if (Character.isHighSurrogate(value.charAt(end - 1))) {
      end--;
    }
    return value.substring(0, end);
  }

  static WorkcellException malformed(String what) {
    return new WorkcellException(ErrorCode.INTERNAL, "celld reply does not fit the contract: " + what);
  }
}
