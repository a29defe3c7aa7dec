package dev.workcell.task.policy;

import dev.workcell.contracts.task.PolicyView;
import java.time.OffsetDateTime;

/** Entity → contract record. */
public final class PolicyMapper {

  private PolicyMapper() {}

  public static PolicyView toView(RuntimePolicyEntity p) {
    if (p == null) {
      return null;
    }
    return new PolicyView(p.id.toString(), p.name, p.image, p.memoryLimit, p.cpuLimit, p.pidsLimit, p.workspaceSize,
        p.idleTimeoutMs, p.networkEnabled, p.computerEnabled, p.takeoverAllowed, p.requireApproval,
        instant(p.createdAt), instant(p.updatedAt));
  }

  private static java.time.Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }
}
