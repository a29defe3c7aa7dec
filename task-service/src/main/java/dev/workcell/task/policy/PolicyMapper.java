package dev.workcell.task.policy;

import dev.workcell.contracts.task.PolicyView;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;

/** Entity → contract record. */
public final class PolicyMapper {

  private PolicyMapper() {}

  public static PolicyView toView(RuntimePolicyEntity p) {
    if (p == null) {
      return null;
    }
    return new PolicyView(p.id.toString(), p.name, p.image, p.memoryLimit, p.cpuLimit, p.pidsLimit, p.workspaceSize,
        p.idleTimeoutMs, p.networkEnabled, p.computerEnabled, p.takeoverAllowed, p.requireApproval,
        allowlist(p.egressAllowlist), instant(p.createdAt), instant(p.updatedAt));
  }

  /** The stored form of an egress allowlist: names joined by commas; null stays null (the open internet). */
  public static String storedAllowlist(List<String> names) {
    return names == null ? null : String.join(",", names);
  }

  private static List<String> allowlist(String stored) {
    if (stored == null) {
      return null;
    }
    return stored.isEmpty() ? List.of() : Arrays.asList(stored.split(","));
  }

  private static java.time.Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }
}
