package dev.workcell.sandbox.lifecycle.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.ManagedVolume;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import java.util.Map;

/**
 * Ownership comes from labels only. A resource under a sandbox's derived name that is unmanaged or
 * labelled for another task, owner, home or instance is refused, and never reused or removed.
 */
final class Ownership {

  private Ownership() {}

  static void require(SandboxInstance instance, SandboxKey key, String deployment) {
    require("container " + instance.name(), instance.labels(), key, deployment);
  }

  static void require(ManagedVolume volume, SandboxKey key, String deployment) {
    require("volume " + volume.name(), volume.labels(), key, deployment);
  }

  private static void require(String what, Map<String, String> labels, SandboxKey key, String deployment) {
    if (!key.owns(labels, deployment)) {
      throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT,
          what + " is not labelled for the " + key.describe() + (key.home() ? "" : " and its owner") + "; it is left untouched");
    }
  }
}
