package dev.workcell.sandbox.runtime;

/** The size a new volume's filesystem gets: a task's from its policy, a home's from the settings. */
public interface WorkspaceSizes {

  /** Bytes of the disk behind {@code key}'s new volume. Blocking (may ask task-service). */
  long bytes(SandboxKey key);
}
