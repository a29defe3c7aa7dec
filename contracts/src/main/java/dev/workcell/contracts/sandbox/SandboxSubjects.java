package dev.workcell.contracts.sandbox;

/**
 * sandbox-service subjects (request/reply, queue group "sandbox"). Every request names the task and
 * carries the acting account in headers; sandbox-service checks the owner label on every resource.
 */
public final class SandboxSubjects {

  private static final String P = "workcell.sandbox.";

  /**
   * Start (or reuse after re-verifying) the task's sandbox; counts against runtime admission. A new
   * container takes the task's policy from task-service ({@code workcell.task.runtime.spec}); an
   * existing one keeps the policy it was created with until it is recreated.
   */
  public static final String ENSURE = P + "ensure";
  public static final String STATUS = P + "status";
  /** Stop the container; the workspace volume stays. */
  public static final String STOP = P + "stop";
  /** Destroy and recreate the container with the task's current policy, keeping the volume. */
  public static final String RECREATE = P + "recreate";
  /** Remove container and volume (task deletion); replies only after both are gone. */
  public static final String DELETE = P + "delete";
  public static final String LIST = P + "list";

  // Workspace files (paths relative to /workspace; see FileEntry and the request records).
  public static final String FILES_LIST = P + "files.list";
  public static final String FILES_STAT = P + "files.stat";
  public static final String FILES_READ = P + "files.read";
  /** Atomic replace; {@code expectedVersion} turns it into a compare-and-swap ({@code conflict}). */
  public static final String FILES_WRITE = P + "files.write";
  public static final String FILES_DELETE = P + "files.delete";
  public static final String FILES_MOVE = P + "files.move";
  public static final String FILES_SEARCH = P + "files.search";
  public static final String FILES_MKDIR = P + "files.mkdir";

  /** Run one command to completion ({@link RunCommand} → {@link CommandResult}). */
  public static final String EXEC = P + "exec";

  /** The task's web preview; refused with {@code network_disabled} when the policy has no network. */
  public static final String PREVIEW_START = P + "preview.start";
  public static final String PREVIEW_STOP = P + "preview.stop";
  public static final String PREVIEW_STATUS = P + "preview.status";

  private SandboxSubjects() {}

  /** Names the task (and its owner, which must match the sandbox's owner label). */
  public record SandboxRef(String taskId, String ownerId) {}

  /** {@code state}: absent, created, running, stopped. */
  public record SandboxState(String taskId, String state, String containerId, String volume, boolean network) {}
}
