package dev.workcell.contracts.sandbox;

/**
 * sandbox-service subjects (request/reply, queue group "sandbox"). Every request names the task and
 * carries the acting account in headers; sandbox-service checks the owner label on every resource.
 */
public final class SandboxSubjects {

  private static final String P = "workcell.sandbox.";

  /** Start (or reuse after re-verifying) the task's sandbox; counts against runtime admission. */
  public static final String ENSURE = P + "ensure";
  public static final String STATUS = P + "status";
  /** Stop the container; the workspace volume stays. */
  public static final String STOP = P + "stop";
  /** Destroy and recreate the container, keeping the volume. */
  public static final String RECREATE = P + "recreate";
  /** Remove container and volume (task deletion); replies only after both are gone. */
  public static final String DELETE = P + "delete";
  public static final String LIST = P + "list";

  private SandboxSubjects() {}

  /** Names the task (and its owner, which must match the sandbox's owner label). */
  public record SandboxRef(String taskId, String ownerId) {}

  /** {@code state}: absent, created, running, stopped. */
  public record SandboxState(String taskId, String state, String containerId, String volume, boolean network) {}
}
