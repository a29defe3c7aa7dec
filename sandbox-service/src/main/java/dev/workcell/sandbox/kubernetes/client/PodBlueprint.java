package dev.workcell.sandbox.kubernetes.client;

import dev.workcell.sandbox.kubernetes.config.KubernetesSettings;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodDNSConfigBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SeccompProfileBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Pod and PVC of a sandbox: the only place a Pod is written. The security context is the Docker
 * profile's ({@link SandboxHardening}) field for field, as far as a Pod can say it:
 * uid/gid 1000, non-root, read-only root, the seccomp profile, no privilege escalation, every
 * capability dropped, no service-account token, no service links, no host namespaces, resource
 * limits, and a size-limited in-memory {@code /tmp}. What differs from Docker, and why:
 * <ul>
 *   <li>celld runs as uid 1000 too: pods/exec cannot choose a user, and a Pod that let an exec become
 *       root would need {@code runAsNonRoot: false} and added capabilities, which the namespace's
 *       restricted Pod Security level refuses (see {@code SandboxDriver#celldSwitchesUser}).</li>
 *   <li>{@code shareProcessNamespace}: the Pod's pause process is PID 1 and reaps orphans, Docker's
 *       {@code --init}.</li>
 *   <li>{@code fsGroup: 1000} makes a fresh PVC writable by the workload (Docker chowns the volume).</li>
 *   <li>celld comes from an init container that copies it into an emptyDir mounted read-only at
 *       {@link SandboxHardening#CELLD_DIR}, Docker's read-only celld volume.</li>
 *   <li>No per-Pod pids limit exists in the Pod API (the kubelet's {@code podPidsLimit} is per node).</li>
 * </ul>
 */
final class PodBlueprint {

  static final String CONTAINER = "sandbox";
  static final String CELLD_INSTALLER = "celld-install";
  static final String WORKSPACE_VOLUME = "workspace";
  static final String TMP_VOLUME = "tmp";
  static final String CELLD_VOLUME = "celld";
  static final long UID = 1000;
  static final long GID = 1000;
  /** Docker's stop timeout. */
  static final long GRACE_SECONDS = 3;
  /** Where Workcell's images keep celld (the Docker driver's celld volume is filled from the same path). */
  static final String CELLD_IN_IMAGE = "/usr/local/bin/celld";

  private final KubernetesSettings k8s;
  /** The image celld is copied from: Workcell's own (it has celld at {@link #CELLD_IN_IMAGE}). */
  private final String celldImage;

  PodBlueprint(KubernetesSettings k8s, String celldImage) {
    this.k8s = k8s;
    this.celldImage = celldImage;
  }

  /**
   * Annotations carry the Docker label map verbatim (same keys and values): a home's 64-character hash
   * and the policy JSON cannot be label values. Labels carry the ones a selector needs and every
   * other one that is a valid label value.
   */
  static Map<String, String> labels(Map<String, String> dockerLabels) {
    Map<String, String> labels = new HashMap<>();
    dockerLabels.forEach((key, value) -> {
      if (!SandboxLabels.POLICY.equals(key) && !SandboxLabels.POLICY_HASH.equals(key) && ResourceNames.labelValue(value)) {
        labels.put(key, value);
      }
    });
    return labels;
  }

  /**
   * {@code allowlisted}: the sandbox's policy has an egress allowlist; it gets its own NetworkPolicy
   * ({@link EgressPolicyBlueprint}) and not the network-enabled label, whose policy opens the internet.
   */
  Pod pod(String name, Map<String, String> dockerLabels, SandboxSpec spec, String claim, boolean allowlisted) {
    Map<String, String> labels = labels(dockerLabels);
    if (allowlisted) {
      labels.put(EgressPolicyBlueprint.SANDBOX_LABEL, name);
      labels.put(EgressPolicyBlueprint.EGRESS_LABEL, EgressPolicyBlueprint.EGRESS_ALLOWLIST);
    } else if (spec.network()) {
      String[] kv = networkLabel();
      labels.put(kv[0], kv[1]);
    }
    PodBuilder pod = new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(k8s.namespace()).withLabels(labels)
        .withAnnotations(new LinkedHashMap<>(dockerLabels)).endMetadata()
        .withNewSpec()
        .withAutomountServiceAccountToken(false)
        .withEnableServiceLinks(false)
        .withHostNetwork(false).withHostPID(false).withHostIPC(false)
        .withShareProcessNamespace(true)
        .withRestartPolicy("Never")
        .withTerminationGracePeriodSeconds(GRACE_SECONDS)
        .withSecurityContext(new PodSecurityContextBuilder()
            .withRunAsUser(UID).withRunAsGroup(GID).withRunAsNonRoot(true).withFsGroup(GID)
            .withSeccompProfile(seccomp()).build())
        .withInitContainers(celldInstaller())
        .withContainers(sandbox(spec))
        .withVolumes(volumes(spec, claim))
        .endSpec();
    if (!spec.dns().isEmpty()) {
      pod.editSpec().withDnsPolicy("None").withDnsConfig(new PodDNSConfigBuilder().withNameservers(spec.dns()).build()).endSpec();
    }
    return pod.build();
  }

  PersistentVolumeClaim claim(String name, Map<String, String> dockerLabels, long bytes) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(name).withNamespace(k8s.namespace()).withLabels(labels(dockerLabels))
        .withAnnotations(new LinkedHashMap<>(dockerLabels)).endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(k8s.storageClass().orElse(null))
        .withNewResources().addToRequests("storage", new Quantity(Long.toString(bytes))).endResources()
        .endSpec()
        .build();
  }

  /** {@code key=value} of the network-enabled label; validated at start. */
  String[] networkLabel() {
    return k8s.networkLabel().split("=", 2);
  }

  private Container sandbox(SandboxSpec spec) {
    ContainerBuilder container = new ContainerBuilder()
        .withName(CONTAINER)
        .withImage(spec.image())
        .withImagePullPolicy("IfNotPresent")
        .withCommand(SandboxHardening.ENTRYPOINT)
        .withWorkingDir(spec.workdir())
        .withSecurityContext(containerSecurity())
        .withResources(resources(spec))
        .withVolumeMounts(
            mount(WORKSPACE_VOLUME, spec.workdir(), false),
            mount(TMP_VOLUME, SandboxHardening.TMP, false),
            mount(CELLD_VOLUME, SandboxHardening.CELLD_DIR, true));
    if (spec.home()) {
      // The only variable set here, as on Docker.
      container.withEnv(new EnvVar("HOME", spec.workdir(), null));
    }
    if (spec.network()) {
      container.addNewPort().withName("preview").withContainerPort(spec.previewPort()).withProtocol("TCP").endPort();
    }
    return container.build();
  }

  private Container celldInstaller() {
    return new ContainerBuilder()
        .withName(CELLD_INSTALLER)
        .withImage(celldImage)
        .withImagePullPolicy("IfNotPresent")
        .withCommand("cp", CELLD_IN_IMAGE, SandboxHardening.CELLD)
        .withSecurityContext(containerSecurity())
        .withResources(new ResourceRequirementsBuilder()
            .addToLimits("memory", new Quantity("64Mi")).addToLimits("cpu", new Quantity("500m"))
            .addToRequests("memory", new Quantity("64Mi")).addToRequests("cpu", new Quantity("50m")).build())
        .withVolumeMounts(mount(CELLD_VOLUME, SandboxHardening.CELLD_DIR, false))
        .build();
  }

  SecurityContext containerSecurity() {
    return new SecurityContextBuilder()
        .withRunAsUser(UID).withRunAsGroup(GID).withRunAsNonRoot(true)
        .withReadOnlyRootFilesystem(SandboxHardening.READ_ONLY_ROOT)
        .withAllowPrivilegeEscalation(false)
        .withPrivileged(SandboxHardening.PRIVILEGED)
        .withNewCapabilities().withDrop(SandboxHardening.CAP_DROP).endCapabilities()
        .withSeccompProfile(seccomp())
        .build();
  }

  private io.fabric8.kubernetes.api.model.SeccompProfile seccomp() {
    String profile = k8s.seccompProfile();
    if (profile.startsWith("Localhost/")) {
      return new SeccompProfileBuilder().withType("Localhost").withLocalhostProfile(profile.substring("Localhost/".length())).build();
    }
    return new SeccompProfileBuilder().withType(profile).build();
  }

  /**
   * Limits from the spec; the memory request equals the limit (the memory budget counts limits), and
   * the cpu request is the spec's weight (Kubernetes turns 1 cpu of request into 1024 cpu shares).
   */
  private static io.fabric8.kubernetes.api.model.ResourceRequirements resources(SandboxSpec spec) {
    ResourceRequirementsBuilder resources = new ResourceRequirementsBuilder()
        .addToLimits("memory", new Quantity(Long.toString(spec.memoryBytes())))
        .addToRequests("memory", new Quantity(Long.toString(spec.memoryBytes())))
        .addToRequests("cpu", new Quantity(Math.max(1, spec.cpuShares() * 1000L / 1024) + "m"));
    if (spec.nanoCpus() > 0) {
      resources.addToLimits("cpu", new Quantity(Math.max(1, spec.nanoCpus() / 1_000_000) + "m"));
    }
    return resources.build();
  }

  private static List<Volume> volumes(SandboxSpec spec, String claim) {
    return List.of(
        new VolumeBuilder().withName(WORKSPACE_VOLUME).withNewPersistentVolumeClaim(claim, false).build(),
        new VolumeBuilder().withName(TMP_VOLUME).withNewEmptyDir().withMedium("Memory")
            .withSizeLimit(new Quantity(Long.toString(spec.tmpBytes()))).endEmptyDir().build(),
        new VolumeBuilder().withName(CELLD_VOLUME).withNewEmptyDir().withSizeLimit(new Quantity("64Mi")).endEmptyDir().build());
  }

  private static VolumeMount mount(String volume, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly).build();
  }
}
