package dev.workcell.contracts.error;

/**
 * Stable error codes. The wire form ({@link #code()}) never changes once released: clients and
 * celld match on it. Each carries the HTTP status the gateway answers with.
 */
public enum ErrorCode {
  // request shape
  INVALID_REQUEST("invalid_request", 400, "The request is not valid"),
  MALFORMED_JSON("malformed_json", 400, "The body is not valid JSON for this operation"),
  PAYLOAD_TOO_LARGE("payload_too_large", 413, "The request body is too large"),
  UNSUPPORTED_MEDIA_TYPE("unsupported_media_type", 415, "Unsupported content type"),
  MESSAGE_TOO_LONG("message_too_long", 413, "The message exceeds 65,536 characters or UTF-8 bytes"),
  MODEL_ID_TOO_LONG("model_id_too_long", 400, "The model id exceeds 500 characters or UTF-8 bytes"),
  PROVIDER_ID_TOO_LONG("provider_id_too_long", 400, "The provider id exceeds 200 characters"),

  // identity and access
  UNAUTHENTICATED("unauthenticated", 401, "Authentication is required"),
  FORBIDDEN("forbidden", 403, "Not allowed"),
  ACCOUNT_DISABLED("account_disabled", 403, "The account is disabled"),
  WORK_ACCESS_DENIED("work_access_denied", 403, "Work is not open to this account"),
  /** The role in the message headers is not the account's stored one (a token issued before a role change). */
  ROLE_CHANGED("role_changed", 409, "The account's role changed since the token was issued; retry the request"),

  // resources and state
  NOT_FOUND("not_found", 404, "Not found"),
  CONFLICT("conflict", 409, "The resource changed since it was read"),
  ALREADY_EXISTS("already_exists", 409, "The target already exists"),
  RUN_ACTIVE("run_active", 409, "The task already has an active run"),
  NO_ACTIVE_RUN("no_active_run", 409, "The task has no active run; start a run instead"),
  TASK_DECOMMISSIONING("task_decommissioning", 409, "The task is being deleted"),
  OWNERSHIP_CONFLICT("ownership_conflict", 409, "The resource belongs to another owner"),

  // admission and availability
  TOO_MANY_TASKS("too_many_tasks", 429, "The task limit is reached"),
  TOO_MANY_RUNTIMES("too_many_runtimes", 429, "The active runtime limit is reached"),
  RATE_LIMITED("rate_limited", 429, "Too many requests; try again after Retry-After seconds"),
  /** Starting the sandbox would take the memory limits of running sandboxes past the instance's budget, and none is idle. */
  RUNTIME_CAPACITY("runtime_capacity", 429, "The sandbox memory budget is in use by busy sandboxes; try again after Retry-After seconds"),
  /** The sandbox's memory limit alone is more than the instance's whole sandbox memory budget: it can never start. */
  SANDBOX_TOO_LARGE("sandbox_too_large", 422, "The sandbox's memory limit exceeds the instance's sandbox memory budget"),
  SAFE_MODE("safe_mode", 503, "The sandbox runtime is in safe mode until cleanup is proven"),
  SERVICE_UNAVAILABLE("service_unavailable", 503, "A backing service is not available"),
  /** A sandbox's request queue (or the service-wide one) is full: its celld is not reading, or is stopped. */
  SANDBOX_BUSY("sandbox_busy", 503, "The sandbox is not taking requests; try again later"),
  /** Network-enabled sandboxes are refused until the closed sandbox network is proven (decision 0008). */
  SANDBOX_NETWORK_UNVERIFIED("sandbox_network_unverified", 503, "The sandbox network's firewall is not in place"),
  UPSTREAM_TIMEOUT("upstream_timeout", 504, "A backing service did not answer in time"),
  NOT_IMPLEMENTED("not_implemented", 501, "This capability has not landed yet"),
  INTERNAL("internal", 500, "Internal error"),

  // workspace files and commands (celld speaks the same codes)
  INVALID_PATH("invalid_path", 400, "The path is not a valid workspace path"),
  PATH_ESCAPE("path_escape", 403, "The path leaves the workspace"),
  NOT_A_DIRECTORY("not_a_directory", 400, "Not a directory"),
  IS_A_DIRECTORY("is_a_directory", 400, "Is a directory"),
  /** Any directory, empty or not: deleting one needs the explicit recursive flag (the wire code predates that rule). */
  DIRECTORY_NOT_EMPTY("directory_not_empty", 409, "Deleting a directory needs recursive"),
  NOT_REGULAR_FILE("not_regular_file", 400, "Not a regular file"),
  NOT_UTF8("not_utf8", 415, "The file is not UTF-8 text"),
  FILE_TOO_LARGE("file_too_large", 413, "The file exceeds 2,000,000 bytes"),
  /** The workspace's (or home's) disk is full (ENOSPC): its size is bounded (decision 0010). */
  WORKSPACE_FULL("workspace_full", 507, "The workspace disk is full; free space in it or use a policy with a larger workspaceSize"),
  INVALID_ARGUMENT("invalid_argument", 400, "An argument is not valid"),
  TIMEOUT("timeout", 504, "The command timed out"),
  CANCELLED("cancelled", 409, "The operation was cancelled"),
  PREVIEW_NOT_FOUND("preview_not_found", 422, "No supported preview entry point was found"),
  PREVIEW_AMBIGUOUS("preview_ambiguous", 422, "Several apps could be previewed; give a command"),
  PREVIEW_FAILED("preview_failed", 502, "The preview did not become ready"),
  /** A signed preview link whose signature does not match (tampered, or another key). */
  PREVIEW_LINK_INVALID("preview_link_invalid", 403, "The preview link is not valid"),
  PREVIEW_LINK_EXPIRED("preview_link_expired", 403, "The preview link has expired"),
  /** The preview the link was signed for was stopped or restarted (a new generation). */
  PREVIEW_REVOKED("preview_revoked", 403, "The preview link no longer works: the preview was stopped or restarted"),
  PREVIEW_UNREACHABLE("preview_unreachable", 502, "The preview does not answer"),
  NETWORK_DISABLED("network_disabled", 409, "The task has no network"),
  INVALID_PATTERN("invalid_pattern", 400, "The search pattern is not a valid regular expression or glob"),
  PROCESS_EXITED("process_exited", 400, "The process has already exited or its stdin is closed"),
  TOO_MANY_PROCESSES("too_many_processes", 429, "The sandbox runs too many background processes"),
  TOO_MANY_TERMINALS("too_many_terminals", 429, "Too many terminal sessions are open"),
  CONNECTION_REFUSED("connection_refused", 502, "Nothing listens on that port in the sandbox"),
  INVALID_PORT("invalid_port", 422, "Port must be between 1 and 65535"),
  METHOD_NOT_ALLOWED("method_not_allowed", 405, "Method Not Allowed"),
  NOT_A_REPOSITORY("not_a_repository", 409, "The workspace is not a git repository"),
  /** A run (running or waiting for a slot) or a verified preview holds the task's sandbox: Git writes wait for it to end. */
  SANDBOX_IN_USE("sandbox_in_use", 409, "A run or a preview is using the task's sandbox; try again when it ends"),
  /** {@code .git} is a link or a file, or the repository's config names what Workcell will not neutralise (issue 24). */
  UNSAFE_REPOSITORY("unsafe_repository", 409, "The repository's .git or configuration is refused: Workcell runs no repository-defined program"),
  WORKTREE_NOT_CLEAN("worktree_not_clean", 409, "Tracked files have uncommitted changes; commit or discard them first"),
  NOTHING_TO_COMMIT("nothing_to_commit", 409, "Nothing is staged"),
  NO_COMMITS("no_commits", 409, "The repository has no commit yet"),
  TOO_MANY_PATHS("too_many_paths", 413, "More than 200 paths in one request"),
  COMMIT_MESSAGE_TOO_LONG("commit_message_too_long", 413, "The commit message exceeds 4,000 characters"),
  // host-folder workspaces (decision 0023)
  HOST_FOLDERS_DISABLED("host_folders_disabled", 403, "Host-folder workspaces are off on this deployment"),
  HOST_FOLDERS_UNSUPPORTED("host_folders_unsupported", 422, "Host-folder workspaces are not available on the Kubernetes backend"),
  HOST_FOLDER_NOT_FOUND("host_folder_not_found", 422, "The host folder does not exist or is not a directory"),
  /** The folder's real path (links resolved) is not inside a configured root. */
  HOST_FOLDER_OUTSIDE_ROOTS("host_folder_outside_roots", 403, "The host folder is not inside a configured host-folder root"),
  /** The folder's real path is, lies in or holds a system directory, Workcell's state folder or the Docker socket. */
  HOST_FOLDER_DENIED("host_folder_denied", 403, "The host folder is or holds a system directory, Workcell's state folder or the Docker socket"),

  // model providers
  PROVIDER_NOT_FOUND("provider_not_found", 404, "The provider is not configured"),
  MODEL_LACKS_TOOLS("model_lacks_tools", 400, "The model does not support tools"),
  PROVIDER_ERROR("provider_error", 502, "The model provider failed");

  private final String code;
  private final int httpStatus;
  private final String title;

  ErrorCode(String code, int httpStatus, String title) {
    this.code = code;
    this.httpStatus = httpStatus;
    this.title = title;
  }

  public String code() {
    return code;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public String title() {
    return title;
  }

  /** Reads a code from the wire; an unknown code (untrusted sender) becomes {@link #INTERNAL}. */
  public static ErrorCode fromCode(String code) {
    if (code != null) {
      for (ErrorCode value : values()) {
        if (value.code.equals(code)) {
          return value;
        }
      }
    }
    return INTERNAL;
  }
}
