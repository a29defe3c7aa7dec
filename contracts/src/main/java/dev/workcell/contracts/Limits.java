package dev.workcell.contracts;

/** The fixed protocol and interface limits of the spec (seed 004's table). Not configurable. */
public final class Limits {

  /** A new-task or run message: characters and UTF-8 bytes. */
  public static final int MESSAGE_MAX_CHARS = 65_536;
  /** A task title, counted after leading and trailing whitespace are stripped. */
  public static final int TITLE_MAX_CHARS = 200;
  /** A host folder's path as asked for (decision 0023); the stored real path is bounded alike. */
  public static final int HOST_FOLDER_MAX_CHARS = 4096;
  public static final int MODEL_ID_MAX_CHARS = 500;
  public static final int PROVIDER_ID_MAX_CHARS = 200;
  public static final int ACTIVE_RUNS_PER_TASK = 1;
  public static final int COMMAND_MAX_CHARS = 20_000;
  public static final int COMMAND_TIMEOUT_MIN_SECONDS = 1;
  public static final int COMMAND_TIMEOUT_MAX_SECONDS = 600;
  public static final int COMMAND_TIMEOUT_DEFAULT_SECONDS = 120;
  public static final int PREVIEW_READY_SECONDS = 15;
  /** File read/write: UTF-8 text bytes. */
  public static final int FILE_MAX_BYTES = 2_000_000;
  public static final int LIST_MAX_ENTRIES = 1_000;
  public static final int PATH_MAX_BYTES = 1_024;
  public static final int SEARCH_MAX_HITS = 100;
  public static final int SEARCH_MAX_FILE_BYTES = 1_000_000;
  public static final int SEARCH_LINE_MAX_CHARS = 500;
  public static final int MESSAGE_PAGE_MAX_MESSAGES = 200;
  public static final int MESSAGE_PAGE_MAX_BYTES = 1_000_000;
  public static final int STORED_MESSAGE_MAX_BYTES = 100_000;
  public static final int CONTEXT_MAX_MESSAGES = 30;
  public static final int CONTEXT_MAX_BYTES = 256_000;
  public static final int STORED_TOOL_OUTPUT_CHARS = 20_000;
  public static final int GIT_STATUS_MAX_CHARS = 2_000_000;
  public static final int GIT_DIFF_MAX_CHARS = 600_000;
  public static final int GIT_LOG_MAX_COMMITS = 20;
  public static final int GIT_STAGE_MAX_PATHS = 200;
  public static final int GIT_COMMIT_MESSAGE_MAX_CHARS = 4_000;
  public static final int DEFAULT_MAX_AGENT_ROUNDS = 48;
  public static final int WEBSOCKET_TICKET_SECONDS = 30;

  private Limits() {}

  /** The tool-call safety budget: max(128, 8 × rounds). */
  public static int toolCallBudget(int rounds) {
    return Math.max(128, 8 * rounds);
  }
}
