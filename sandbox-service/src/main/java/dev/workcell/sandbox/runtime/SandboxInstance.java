package dev.workcell.sandbox.runtime;

import java.util.Map;

/**
 * A sandbox container as the runtime reports it. {@code state}: created, running or stopped.
 * Identity fields come from labels and may be null on a resource that is not ours.
 */
public record SandboxInstance(
    String containerId,
    String name,
    String state,
    Map<String, String> labels) {

  public SandboxInstance {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  public boolean running() {
    return "running".equals(state);
  }

  public String taskId() {
    return labels.get(SandboxLabels.TASK);
  }

  public String ownerId() {
    return labels.get(SandboxLabels.OWNER);
  }

  /** The sandbox these labels name, or null when they name none. */
  public SandboxKey key() {
    return SandboxKey.fromLabels(labels);
  }

  public boolean home() {
    return labels.containsKey(SandboxLabels.HOME);
  }

  public String instance() {
    return labels.get(SandboxLabels.INSTANCE);
  }

  public boolean managed() {
    return "true".equals(labels.get(SandboxLabels.MANAGED));
  }
}
