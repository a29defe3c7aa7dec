package dev.workcell.sandbox.runtime;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Which sandbox a request means: a task's (with its owner) or an Open Terminal user's home, named
 * by the sha256 of the whole user id so no two ids can share one. Runtime names, labels, the
 * mount point and the keys of locks and leases all derive from it, never from request text.
 *
 * @param taskId the task, or null for a home
 * @param ownerId the task's owner, or null for a home
 * @param homeHash sha256 hex of the home's user id, or null for a task
 */
public record SandboxKey(String taskId, String ownerId, String homeHash) {

  /** Where a home's volume is mounted: also its working directory, HOME and celld's root. */
  public static final String HOME_DIR = "/home/user";
  public static final int HOME_USER_MAX_CHARS = 256;

  public static SandboxKey of(SandboxRef ref) {
    return ref.isHome() ? home(ref.homeUserId()) : task(ref.taskId(), ref.ownerId());
  }

  public static SandboxKey task(String taskId, String ownerId) {
    return new SandboxKey(SandboxNames.requireTaskId(taskId), ownerId, null);
  }

  public static SandboxKey home(String userId) {
    return new SandboxKey(null, null, sha256(userId));
  }

  /** The key of a resource from its labels: a home label wins; null when it names neither. */
  public static SandboxKey fromLabels(Map<String, String> labels) {
    String home = labels.get(SandboxLabels.HOME);
    if (home != null) {
      return new SandboxKey(null, null, home);
    }
    String task = labels.get(SandboxLabels.TASK);
    return task == null ? null : new SandboxKey(task, labels.get(SandboxLabels.OWNER), null);
  }

  public boolean home() {
    return homeHash != null;
  }

  /** Locks, leases and the active table: the task id, or {@code home-<hash>} (task ids are ≤ 64 chars, so never this). */
  public String id() {
    return home() ? "home-" + homeHash : taskId;
  }

  /** Whom the per-user runtime cap counts: the task's owner, or the home itself. */
  public String admissionOwner() {
    return home() ? id() : ownerId;
  }

  /** The container's name in the deployment {@code instance}. */
  public String container(String instance) {
    return home() ? homeName(instance) : SandboxNames.container(taskId);
  }

  /** The volume's name in the deployment {@code instance}. */
  public String volume(String instance) {
    return home() ? homeName(instance) : SandboxNames.volume(taskId);
  }

  /**
   * Task ids are random, so their names never meet; a home's hash is the same in every deployment,
   * so a second deployment on the engine names its homes with its instance and never runs into the
   * first one's. The default instance keeps the plain name, so existing homes keep their files.
   */
  private String homeName(String instance) {
    return SandboxNames.DEFAULT_INSTANCE.equals(instance) ? "workcell-home-" + homeHash
        : "workcell-" + instance + "-home-" + homeHash;
  }

  public String workdir() {
    return home() ? HOME_DIR : SandboxHardening.WORKSPACE;
  }

  /** Labels of the container and volume: managed, instance, and the task and owner or the home hash. */
  public Map<String, String> labels(String instance) {
    return home()
        ? Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.HOME, homeHash, SandboxLabels.INSTANCE, instance)
        : Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.TASK, taskId, SandboxLabels.OWNER, ownerId,
            SandboxLabels.INSTANCE, instance);
  }

  /** True when labels name exactly this sandbox of this deployment (a home has no task or owner label). */
  public boolean owns(Map<String, String> labels, String instance) {
    if (!"true".equals(labels.get(SandboxLabels.MANAGED)) || !instance.equals(labels.get(SandboxLabels.INSTANCE))) {
      return false;
    }
    if (home()) {
      return homeHash.equals(labels.get(SandboxLabels.HOME)) && !labels.containsKey(SandboxLabels.TASK)
          && !labels.containsKey(SandboxLabels.OWNER);
    }
    return taskId.equals(labels.get(SandboxLabels.TASK)) && ownerId != null && ownerId.equals(labels.get(SandboxLabels.OWNER))
        && !labels.containsKey(SandboxLabels.HOME);
  }

  /** For logs: never the user id itself. */
  public String describe() {
    return home() ? "home " + homeHash.substring(0, 12) : "task " + taskId;
  }

  private static String sha256(String userId) {
    if (userId == null || userId.isEmpty() || userId.length() > HOME_USER_MAX_CHARS
        || userId.codePoints().anyMatch(c -> Character.isISOControl(c) || !Character.isDefined(c))) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "homeUserId must be 1.." + HOME_USER_MAX_CHARS + " printable characters");
    }
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(userId.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }
}
