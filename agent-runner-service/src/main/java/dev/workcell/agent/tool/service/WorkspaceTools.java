package dev.workcell.agent.tool.service;

import dev.workcell.agent.provider.ToolSpec;
import dev.workcell.contracts.Limits;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The nine tools a model gets, with JSON schemas kept to the subset every provider accepts (no
 * {@code additionalProperties}, no {@code $ref}) so Gemini's function declarations take them too.
 */
public final class WorkspaceTools {

  public static final String LIST_FILES = "list_files";
  public static final String READ_FILE = "read_file";
  public static final String WRITE_FILE = "write_file";
  public static final String DELETE_FILE = "delete_file";
  public static final String MOVE_FILE = "move_file";
  public static final String SEARCH_FILES = "search_files";
  public static final String RUN_COMMAND = "run_command";
  public static final String START_PREVIEW = "start_preview";
  public static final String STOP_PREVIEW = "stop_preview";

  /** Tools that only look: running one before its call is stored changes nothing if the store then fails. */
  public static boolean readOnly(String name) {
    return LIST_FILES.equals(name) || READ_FILE.equals(name) || SEARCH_FILES.equals(name);
  }

  public static final List<ToolSpec> ALL = List.of(
      tool(LIST_FILES, "List one directory of the workspace (first " + Limits.LIST_MAX_ENTRIES + " entries).",
          Map.of("path", string("Directory relative to /workspace; empty for the root.")), List.of()),
      tool(READ_FILE, "Read a UTF-8 text file of the workspace (at most " + Limits.FILE_MAX_BYTES + " bytes).",
          Map.of("path", string("File path relative to /workspace.")), List.of("path")),
      tool(WRITE_FILE, "Create or replace a UTF-8 text file atomically; missing parent directories are created.",
          ordered("path", string("File path relative to /workspace."), "content", string("The whole new content.")),
          List.of("path", "content")),
      tool(DELETE_FILE, "Delete a file or link; a directory needs recursive=true. Links are never followed.",
          ordered("path", string("Path relative to /workspace."), "recursive", bool("Delete a directory and everything in it.")),
          List.of("path")),
      tool(MOVE_FILE, "Rename or move within the workspace; never overwrites an existing destination.",
          ordered("from", string("Existing path relative to /workspace."), "to", string("New path relative to /workspace.")),
          List.of("from", "to")),
      tool(SEARCH_FILES, "Search text files for a literal string; returns matching lines (at most " + Limits.SEARCH_MAX_HITS + ").",
          ordered("query", string("Literal text to find."), "path", string("Directory to search, relative to /workspace; empty for all."),
              "max_hits", integer("Most hits to return (1-" + Limits.SEARCH_MAX_HITS + ").")),
          List.of("query")),
      tool(RUN_COMMAND, "Run a shell command in /workspace and wait for it. Output is capped; background processes are "
              + "killed when it ends (use start_preview for a server).",
          ordered("command", string("The command line (bash)."), "timeout_seconds",
              integer("Timeout in seconds (" + Limits.COMMAND_TIMEOUT_MIN_SECONDS + "-" + Limits.COMMAND_TIMEOUT_MAX_SECONDS + ").")),
          List.of("command")),
      tool(START_PREVIEW, "Start the long-running web preview of the workspace (the only process that may outlive a command). "
              + "It must listen on 0.0.0.0 and the preview port. Verify the app first. "
              + "Answers the preview's signed url: give it to the user; a restart or stop revokes it.",
          Map.of("command", string("Command that serves the app; omit to detect a dev script or a static index.html.")), List.of()),
      tool(STOP_PREVIEW, "Stop the web preview.", Map.of(), List.of()));

  private WorkspaceTools() {}

  private static ToolSpec tool(String name, String description, Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    return new ToolSpec(name, description, schema);
  }

  private static Map<String, Object> ordered(Object... pairs) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], pairs[i + 1]);
    }
    return map;
  }

  private static Map<String, Object> string(String description) {
    return Map.of("type", "string", "description", description);
  }

  private static Map<String, Object> integer(String description) {
    return Map.of("type", "integer", "description", description);
  }

  private static Map<String, Object> bool(String description) {
    return Map.of("type", "boolean", "description", description);
  }
}
