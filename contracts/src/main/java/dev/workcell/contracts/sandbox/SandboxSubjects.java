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

  /**
   * Runtime slots ("leases"): a task's slot is held by what uses its sandbox — a run
   * ({@link HoldRuntime} → {@link RuntimeHold}, renewed while it runs, may wait in line), an
   * operation in flight, a verified preview — and released when the last holder ends; a sandbox
   * left without one stops after the release grace. Leases are rebuilt from what runs after a restart.
   */
  public static final String LEASE_HOLD = P + "lease.hold";
  /** Ends a hold or a wait in line ({@link ReleaseRuntime} → {@link RuntimeHold}). */
  public static final String LEASE_RELEASE = P + "lease.release";
  /** Caps and current use ({@link RuntimeUsageQuery} → {@link RuntimeUsage}): capabilities and the door check of new runs. */
  public static final String RUNTIME_USAGE = P + "runtime.usage";

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

  /** Raw bytes of any file, in chunks ({@link ReadBytes} → {@link FileBytes}). */
  public static final String FILES_READ_BYTES = P + "files.read_bytes";
  /** Atomic replace with raw bytes ({@link WriteBytes} → {@link FileWritten}); uploads. */
  public static final String FILES_WRITE_BYTES = P + "files.write_bytes";
  /** Regular-expression or literal search with an include glob ({@link GrepFiles} → {@link GrepResult}). */
  public static final String FILES_GREP = P + "files.grep";
  /** Files and directories by glob pattern ({@link GlobFiles} → {@link GlobResult}). */
  public static final String FILES_GLOB = P + "files.glob";

  /** Run one command to completion ({@link RunCommand} → {@link CommandResult}). */
  public static final String EXEC = P + "exec";
  /**
   * Cancel a running {@link RunCommand} by its {@code execId} ({@link CancelExec} → {@link ExecCancelled}):
   * TERM, KILL after the grace, every leftover process killed; the EXEC request then fails {@code cancelled}.
   */
  public static final String EXEC_CANCEL = P + "exec.cancel";
  /**
   * Live output of a running {@link RunCommand} that carries an {@code execId} (core NATS, no reply):
   * {@link ExecOutput} chunks on {@code EXEC_OUTPUT_PREFIX + execId}, in production order per stream,
   * at most the command's output cap per stream. The final {@link CommandResult} stays the record of
   * truth; execIds should be unguessable, since the subject carries nothing else.
   */
  public static final String EXEC_OUTPUT_PREFIX = P + "exec.output.";

  /**
   * Background processes (the Open Terminal model): a command keeps running after the request; its
   * output is kept bounded and polled by offset. Processes live in their sandbox's celld, so a
   * process id of another sandbox is simply {@code not_found}.
   */
  public static final String PROCESS_START = P + "process.start";
  public static final String PROCESS_STATUS = P + "process.status";
  public static final String PROCESS_INPUT = P + "process.input";
  public static final String PROCESS_KILL = P + "process.kill";
  public static final String PROCESS_LIST = P + "process.list";

  /** Git state of the workspace ({@link GitQuery} → {@link GitStatus} / {@link GitDiff}); {@code not_a_repository} without one. */
  public static final String GIT_STATUS = P + "git.status";
  public static final String GIT_DIFF = P + "git.diff";

  /** The task's web preview; refused with {@code network_disabled} when the policy has no network. */
  public static final String PREVIEW_START = P + "preview.start";
  public static final String PREVIEW_STOP = P + "preview.stop";
  public static final String PREVIEW_STATUS = P + "preview.status";

  private SandboxSubjects() {}

  /**
   * Names a sandbox: a task's (with its owner, which must match the sandbox's owner label), or an
   * Open Terminal user's home ({@code homeUserId}: the caller's {@code X-User-Id}, whole; sandbox and
   * volume names derive from a hash of it). Only service actors (the gateway) may name a home.
   */
  public record SandboxRef(String taskId, String ownerId, String homeUserId) {

    public SandboxRef(String taskId, String ownerId) {
      this(taskId, ownerId, null);
    }

    public static SandboxRef home(String userId) {
      return new SandboxRef(null, null, userId);
    }

    public boolean isHome() {
      return homeUserId != null;
    }
  }

  /**
   * {@code state}: absent, created, running, stopped. {@code disk}: the volume's size and use (only
   * {@link #STATUS} fills it; null elsewhere and when there is no volume).
   */
  public record SandboxState(String taskId, String state, String containerId, String volume, boolean network, DiskUsage disk) {

    public SandboxState(String taskId, String state, String containerId, String volume, boolean network) {
      this(taskId, state, containerId, volume, network, null);
    }
  }
}
