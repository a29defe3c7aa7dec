package dev.workcell.sandbox.lifecycle;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.runtime.ManagedVolume;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxLabels;
import java.util.Map;

/**
 * Ownership comes from labels only. A resource under a task's derived name that is unmanaged or
 * labelled for another task, owner or instance is refused, and never reused or removed.
 */
final class Ownership {

  private Ownership() {}

  static void require(SandboxInstance instance, SandboxRef ref, String deployment) {
    require("container " + instance.name(), instance.labels(), ref, deployment);
  }

  static void require(ManagedVolume volume, SandboxRef ref, String deployment) {
    require("volume " + volume.name(), volume.labels(), ref, deployment);
  }

  private static void require(String what, Map<String, String> labels, SandboxRef ref, String deployment) {
    boolean ours = "true".equals(labels.get(SandboxLabels.MANAGED))
        && ref.taskId().equals(labels.get(SandboxLabels.TASK))
        && ref.ownerId().equals(labels.get(SandboxLabels.OWNER))
        && deployment.equals(labels.get(SandboxLabels.INSTANCE));
    if (!ours) {
      throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT,
          what + " is not labelled for task " + ref.taskId() + " and its owner; it is left untouched");
    }
  }
}
