package dev.workcell.sandbox.runtime;

import java.util.Map;

/** A workspace volume and its labels. */
public record ManagedVolume(String name, Map<String, String> labels) {

  public ManagedVolume {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  public String taskId() {
    return labels.get(SandboxLabels.TASK);
  }

  public boolean home() {
    return labels.containsKey(SandboxLabels.HOME);
  }

  public String ownerId() {
    return labels.get(SandboxLabels.OWNER);
  }
}
