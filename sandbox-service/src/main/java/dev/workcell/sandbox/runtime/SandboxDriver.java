package dev.workcell.sandbox.runtime;

import dev.workcell.contracts.sandbox.DiskUsage;
import java.util.List;
import java.util.Optional;

/**
 * The seam between sandbox-service and a container runtime (Docker, or Kubernetes Pods). Every
 * method blocks; callers run it on a worker thread. Ownership decisions stay with the caller, which
 * reads them from the labels this driver reports.
 */
public interface SandboxDriver {

  /** The sandbox by its derived name, whoever labelled it; empty when there is none. */
  Optional<SandboxInstance> find(SandboxKey key);

  /** The sandbox's volume by its derived name, whoever labelled it. */
  Optional<ManagedVolume> findVolume(SandboxKey key);

  /**
   * Re-reads the sandbox and lists every way it differs from {@code spec} and the hardening
   * profile (hash label and mount point included); empty means it may be reused.
   */
  List<String> drift(SandboxKey key, SandboxInstance instance, SandboxSpec spec);

  /**
   * Creates the container (and the volume if missing) labelled for {@code key}, then reads it back:
   * a container the engine did not configure as asked is removed and refused.
   */
  SandboxInstance create(SandboxKey key, SandboxSpec spec, String policyLabel);

  void start(SandboxInstance instance, SandboxSpec spec);

  /** Stops the container; the volume is untouched. */
  void stop(SandboxInstance instance);

  /** Removes the container (running or not); the volume is untouched. */
  void removeContainer(SandboxInstance instance);

  void removeVolume(ManagedVolume volume);

  /** Every managed container of this deployment, in one labelled query. */
  List<SandboxInstance> listManaged();

  /** Every managed workspace volume of this deployment, in one labelled query. */
  List<ManagedVolume> listManagedVolumes();

  /**
   * Starts celld's {@code command} in {@code workdir} with stdin/stdout attached, as
   * root ({@link SandboxHardening#CONTAINER_USER}): celld becomes its own user before it serves.
   */
  ExecStream exec(SandboxInstance instance, String workdir, List<String> command, ExecStream.Listener listener);

  /**
   * Whether {@link #exec} runs as root so celld can become its own user ({@link SandboxHardening#CELLD_USER},
   * decision 0007). False where an exec cannot choose its user (Kubernetes' pods/exec runs as the Pod's
   * non-root user): celld then runs as the workload's user and is started without {@code --user}.
   */
  default boolean celldSwitchesUser() {
    return true;
  }

  /**
   * Why a sandbox that was started is not running, when its image is to blame (it could not start
   * the idle process); empty otherwise. Only asked after celld failed to start.
   */
  Optional<String> startFailure(SandboxInstance instance);

  /** The engine host's memory and cores, asked once and remembered (they change only with the host). */
  HostResources hostResources();

  /** Where the preview port of a running, networked sandbox is published. */
  Optional<PreviewEndpoint> previewEndpoint(SandboxInstance instance);

  /**
   * Size and use of {@code key}'s volume: measured in its running sandbox ({@code instance}), else the
   * last measurement; an unbounded volume says so. Empty when there is no volume or nothing is known.
   */
  default Optional<DiskUsage> diskUsage(SandboxKey key, Optional<SandboxInstance> instance) {
    return Optional.empty();
  }

  /**
   * Mounts the disks behind {@code volumes} that are not mounted (after a reboot of the engine's host);
   * a disk that cannot be mounted is logged and its sandbox cannot start (decision 0010).
   */
  default void mountDisks(List<ManagedVolume> volumes) {}
}
