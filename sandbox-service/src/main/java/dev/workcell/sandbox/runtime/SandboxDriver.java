package dev.workcell.sandbox.runtime;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import java.util.List;
import java.util.Optional;

/**
 * The seam between sandbox-service and a container runtime (Docker now, Kubernetes later). Every
 * method blocks; callers run it on a worker thread. Ownership decisions stay with the caller, which
 * reads them from the labels this driver reports.
 */
public interface SandboxDriver {

  /** The task's sandbox by its derived name, whoever labelled it; empty when there is none. */
  Optional<SandboxInstance> find(String taskId);

  /** The task's workspace volume by its derived name, whoever labelled it. */
  Optional<ManagedVolume> findVolume(String taskId);

  /**
   * Re-reads the sandbox and lists every way it differs from {@code spec} and the hardening
   * profile (hash label included); empty means it may be reused.
   */
  List<String> drift(SandboxInstance instance, SandboxSpec spec);

  /**
   * Creates the container (and the volume if missing) labelled for {@code ref}, then reads it back:
   * a container the engine did not configure as asked is removed and refused.
   */
  SandboxInstance create(SandboxRef ref, SandboxSpec spec, String policyLabel);

  void start(SandboxInstance instance);

  /** Stops the container; the volume is untouched. */
  void stop(SandboxInstance instance);

  /** Removes the container (running or not); the volume is untouched. */
  void removeContainer(SandboxInstance instance);

  void removeVolume(ManagedVolume volume);

  /** Every managed container of this deployment, in one labelled query. */
  List<SandboxInstance> listManaged();

  /** Every managed workspace volume of this deployment, in one labelled query. */
  List<ManagedVolume> listManagedVolumes();

  /** Starts {@code command} as the sandbox user with stdin/stdout attached. */
  ExecStream exec(SandboxInstance instance, List<String> command, ExecStream.Listener listener);

  /** Where the preview port of a running, networked sandbox is published. */
  Optional<PreviewEndpoint> previewEndpoint(SandboxInstance instance);
}
