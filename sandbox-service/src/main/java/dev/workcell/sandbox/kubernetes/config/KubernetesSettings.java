package dev.workcell.sandbox.kubernetes.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * The Kubernetes backend ({@code WORK_RUNTIME_BACKEND=kubernetes}): where sandbox Pods and their
 * PVCs live and how long the driver waits for the cluster. Seed 004's {@code WORK_K8S_*} names are
 * environment aliases ({@link dev.workcell.sandbox.config.WorkEnvAliases}); read only when the backend is kubernetes.
 */
@ConfigMapping(prefix = "workcell.kubernetes")
public interface KubernetesSettings {

  /** The namespace of every sandbox Pod and PVC (WORK_K8S_NAMESPACE); sandbox-service's Role is bound there alone. */
  @WithDefault("workcell-sandboxes")
  String namespace();

  /** StorageClass of workspace PVCs (WORK_K8S_STORAGE_CLASS); absent: the cluster's default class. */
  Optional<String> storageClass();

  /** How long a started Pod may take to be Ready (image pull included) before the start fails (WORK_K8S_POD_READY_TIMEOUT_MS). */
  @WithDefault("120000")
  long podReadyTimeoutMs();

  /** How long a deleted Pod may take to be gone before a stop or recreate fails (WORK_K8S_POD_GONE_TIMEOUT_MS). */
  @WithDefault("60000")
  long podGoneTimeoutMs();

  /**
   * {@code key=value} on the Pods of network-enabled sandboxes: the chart's NetworkPolicy lets only
   * Pods with it reach the internet (helm value {@code work.networkPolicy.networkEnabledLabel}).
   */
  @WithDefault("workcell.dev/network=enabled")
  String networkLabel();

  /**
   * Ranges an allowlisted sandbox never reaches, whatever its names resolve to, on top of the private,
   * shared, link-local and loopback ranges (helm value {@code work.networkPolicy.blockedEgressCidrs}).
   */
  Optional<List<String>> blockedEgressCidrs();

  /**
   * Whether an allowlisted sandbox may ask the cluster DNS (port 53 of kube-dns in kube-system) to
   * resolve its names (helm value {@code work.networkPolicy.allowClusterDns}).
   */
  @WithDefault("true")
  boolean allowClusterDns();

  /**
   * The Pods' seccomp profile: {@code RuntimeDefault}, or {@code Localhost/<path>} for Workcell's own
   * profile ({@code seccomp/sandbox.json}) installed on every node under the kubelet's seccomp directory.
   */
  @WithDefault("RuntimeDefault")
  String seccompProfile();
}
