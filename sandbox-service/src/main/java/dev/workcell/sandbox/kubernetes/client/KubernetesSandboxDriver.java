package dev.workcell.sandbox.kubernetes.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.egress.Destinations;
import dev.workcell.sandbox.egress.EgressNetwork;
import dev.workcell.sandbox.kubernetes.config.KubernetesSettings;
import dev.workcell.sandbox.runtime.DriverCalls;
import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.HostResources;
import dev.workcell.sandbox.runtime.ManagedVolume;
import dev.workcell.sandbox.runtime.PreviewEndpoint;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxPolicy;
import dev.workcell.sandbox.runtime.SandboxSpec;
import dev.workcell.sandbox.runtime.WorkspaceSizes;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * {@link SandboxDriver} on the Kubernetes API: a Pod and a PVC per task and per home in
 * WORK_K8S_NAMESPACE. A Pod cannot be stopped and started again, so here stop deletes the Pod
 * (the PVC, the workspace, stays) and start creates it again from the spec when it is gone, then
 * waits until it is Ready. The Pod's name stands for its id: a recreated Pod is the same sandbox.
 * Typed to its own class: {@code SandboxDriverSelector} hands it out when the backend is kubernetes.
 */
@ApplicationScoped
@Typed(KubernetesSandboxDriver.class)
public class KubernetesSandboxDriver implements SandboxDriver {

  /** Waiting reasons of a Pod that will not become Ready by waiting longer. */
  private static final Set<String> STUCK = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
      "CreateContainerConfigError", "CreateContainerError", "RunContainerError");
  /** No single host behind a cluster: the scheduler and the namespace's quota admit Pods (set workcell.sandbox.memory-budget). */
  private static final HostResources CLUSTER = new HostResources(1L << 50, Integer.MAX_VALUE);
  private static final ObjectMapper POLICY_JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final KubernetesClient client;
  private final SandboxSettings settings;
  private final KubernetesSettings k8s;
  private final RequestQueueBudget queues;
  private final WorkspaceSizes sizes;
  private final PodBlueprint blueprint;
  private final EgressPolicyBlueprint egress;

  @Inject
  public KubernetesSandboxDriver(KubernetesClient client, SandboxSettings settings, KubernetesSettings k8s,
      RequestQueueBudget queues, WorkspaceSizes sizes) {
    this.client = client;
    this.settings = settings;
    this.blueprint = new PodBlueprint(k8s, settings.celld().image().orElse(settings.runtimeImage()));
    this.egress = new EgressPolicyBlueprint(k8s, Destinations.publicOnly(settings));
    this.k8s = k8s;
    this.queues = queues;
    this.sizes = sizes;
  }

  @Override
  public Optional<SandboxInstance> find(SandboxKey key) {
    return call("read the Pod of " + key.describe(), () -> pod(podName(key)).map(KubernetesSandboxDriver::instance));
  }

  @Override
  public Optional<ManagedVolume> findVolume(SandboxKey key) {
    return call("read the PVC of " + key.describe(), () -> claim(claimName(key)).map(KubernetesSandboxDriver::volume));
  }

  @Override
  public List<String> drift(SandboxKey key, SandboxInstance instance, SandboxSpec spec) {
    return call("verify sandbox " + instance.name(),
        () -> pod(instance.name()).map(actual -> drift(key, spec, actual)).orElse(List.of("pod is gone")));
  }

  private List<String> drift(SandboxKey key, SandboxSpec spec, Pod actual) {
    if (actual.getMetadata().getDeletionTimestamp() != null) {
      return List.of("pod is being deleted");
    }
    String policy = workcellLabels(actual).get(SandboxLabels.POLICY);
    String name = actual.getMetadata().getName();
    List<String> drift = new ArrayList<>(PodCheck.drift(blueprint.pod(name, labels(key, spec, policy), spec, claimName(key), allowlisted(spec)), actual));
    if (allowlisted(spec) && networkPolicies().withName(EgressPolicyBlueprint.name(name)).get() == null) {
      drift.add("its egress NetworkPolicy is missing");
    }
    return drift;
  }

  @Override
  public SandboxInstance create(SandboxKey key, SandboxSpec spec, String policyLabel) {
    return call("create the sandbox of " + key.describe(), () -> {
      String claim = ensureClaim(key);
      String name = podName(key);
      applyEgressPolicy(key, name, spec, policyLabel);
      Pod wanted = blueprint.pod(name, labels(key, spec, policyLabel), spec, claim, allowlisted(spec));
      try {
        pods().resource(wanted).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "pod name " + name + " is already taken", e);
        }
        throw e;
      }
      Pod created = pod(name).orElseThrow(() ->
          new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "pod " + name + " vanished right after creation"));
      // Read back what the API server stored: a mutating webhook that weakened the Pod must not run it.
      List<String> drift = PodCheck.drift(wanted, created);
      if (!drift.isEmpty()) {
        deleteQuietly(name);
        throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "the API server did not keep the hardening profile: " + drift);
      }
      Log.infof("created pod %s/%s for %s", k8s.namespace(), name, key.describe());
      return instance(created);
    });
  }

  @Override
  public void start(SandboxInstance instance, SandboxSpec spec) {
    run("start sandbox " + instance.name(), () -> {
      Optional<Pod> pod = pod(instance.name());
      if (pod.isPresent() && (pod.get().getMetadata().getDeletionTimestamp() != null || finished(pod.get()))) {
        deleteAndWait(instance.name());
        pod = Optional.empty();
      }
      if (pod.isEmpty()) {
        // Stopped: the Pod was deleted and its PVC kept. The same Pod again, from its labels and the spec.
        SandboxKey key = instance.key();
        if (key == null) {
          throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "sandbox " + instance.name() + " names no task or home");
        }
        String policyLabel = instance.labels().get(SandboxLabels.POLICY);
        applyEgressPolicy(key, instance.name(), spec, policyLabel);
        pods().resource(blueprint.pod(instance.name(), labels(key, spec, policyLabel), spec, ensureClaim(key), allowlisted(spec))).create();
      }
      awaitReady(instance.name());
    });
  }

  /** Deletes the Pod and its egress NetworkPolicy (if any); a start writes both again. */
  @Override
  public void stop(SandboxInstance instance) {
    run("stop sandbox " + instance.name(), () -> deleteAndWait(instance.name()));
  }

  @Override
  public void removeContainer(SandboxInstance instance) {
    run("remove sandbox " + instance.name(), () -> deleteAndWait(instance.name()));
  }

  @Override
  public void removeVolume(ManagedVolume volume) {
    run("remove workspace PVC " + volume.name(), () -> client.persistentVolumeClaims().inNamespace(k8s.namespace())
        .withName(volume.name()).delete());
  }

  @Override
  public List<SandboxInstance> listManaged() {
    return call("list managed Pods", () -> pods().withLabels(selector()).list().getItems().stream()
        .map(KubernetesSandboxDriver::instance).toList());
  }

  @Override
  public List<ManagedVolume> listManagedVolumes() {
    return call("list managed PVCs", () -> client.persistentVolumeClaims().inNamespace(k8s.namespace()).withLabels(selector())
        .list().getItems().stream().map(KubernetesSandboxDriver::volume).toList());
  }

  /** celld's channel: stdin and stdout of an exec through the API server (pods/exec), no TTY. */
  @Override
  public ExecStream exec(SandboxInstance instance, String workdir, List<String> command, ExecStream.Listener listener) {
    return call("attach to sandbox " + instance.name(), () -> {
      // No working directory in pods/exec: the container's is the spec's workdir, the one asked for.
      PodExecStream stream = new PodExecStream(listener, queues.share());
      ExecWatch watch = pods().withName(instance.name()).inContainer(PodBlueprint.CONTAINER)
          .redirectingInput().writingOutput(stream.stdout()).writingError(stream.stderr())
          .usingListener(stream).exec(command.toArray(String[]::new));
      stream.attached(watch);
      return stream;
    });
  }

  @Override
  public boolean celldSwitchesUser() {
    return false;
  }

  @Override
  public Optional<String> startFailure(SandboxInstance instance) {
    return call("read sandbox " + instance.name(), () -> pod(instance.name()).flatMap(KubernetesSandboxDriver::failure));
  }

  @Override
  public HostResources hostResources() {
    return CLUSTER;
  }

  /** The Pod's own address: preview-proxy connects to it directly (the chart's NetworkPolicy lets only it and sandbox-service in). */
  @Override
  public Optional<PreviewEndpoint> previewEndpoint(SandboxInstance instance) {
    return call("read the address of " + instance.name(), () -> pod(instance.name())
        .filter(pod -> blueprint.networkLabel()[1].equals(labelsOf(pod).get(blueprint.networkLabel()[0]))
            || EgressPolicyBlueprint.EGRESS_ALLOWLIST.equals(labelsOf(pod).get(EgressPolicyBlueprint.EGRESS_LABEL)))
        .filter(KubernetesSandboxDriver::ready)
        .map(pod -> pod.getStatus().getPodIP())
        .filter(ip -> ip != null && !ip.isBlank())
        .map(ip -> new PreviewEndpoint(ip, settings.previewPort())));
  }

  /** Whether the sandbox's policy has an egress allowlist (the spec names the egress network then, decision 0012). */
  private boolean allowlisted(SandboxSpec spec) {
    return spec.network() && spec.networkName().equals(EgressNetwork.name(settings));
  }

  /**
   * Writes the NetworkPolicy of an allowlisted sandbox before its Pod exists, from the policy it is
   * created with (names resolved now); a name held by another sandbox's policy is refused.
   */
  private void applyEgressPolicy(SandboxKey key, String pod, SandboxSpec spec, String policyLabel) {
    if (!allowlisted(spec)) {
      return;
    }
    NetworkPolicy wanted = egress.policy(pod, key.labels(settings.instance()), allowlist(policyLabel));
    NetworkPolicy existing = networkPolicies().withName(wanted.getMetadata().getName()).get();
    if (existing != null && !key.owns(workcellLabels(existing), settings.instance())) {
      throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "NetworkPolicy " + wanted.getMetadata().getName()
          + " is not labelled for this " + key.describe());
    }
    networkPolicies().resource(wanted).createOr(NonDeletingOperation::update);
  }

  /** The allowlist in a policy label; a label without one (or unreadable) allows nothing: fail closed. */
  private static List<String> allowlist(String policyLabel) {
    try {
      SandboxPolicy policy = policyLabel == null ? null : POLICY_JSON.readValue(policyLabel, SandboxPolicy.class);
      return policy == null || policy.egressAllowlist() == null ? List.of() : policy.egressAllowlist();
    } catch (JsonProcessingException e) {
      Log.warnf("unreadable policy label, its sandbox reaches nothing: %s", e.getOriginalMessage());
      return List.of();
    }
  }

  private String ensureClaim(SandboxKey key) {
    String name = claimName(key);
    Optional<PersistentVolumeClaim> existing = claim(name);
    if (existing.isPresent()) {
      if (!key.owns(workcellLabels(existing.get()), settings.instance())) {
        throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "PVC " + name + " is not labelled for this " + key.describe());
      }
      if (existing.get().getMetadata().getDeletionTimestamp() != null) {
        throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "PVC " + name + " is being deleted");
      }
      return name;
    }
    try {
      client.persistentVolumeClaims().inNamespace(k8s.namespace())
          .resource(blueprint.claim(name, key.labels(settings.instance()), sizes.bytes(key))).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "PVC name " + name + " was taken meanwhile", e);
      }
      throw e;
    }
    return name;
  }

  private void awaitReady(String name) {
    Pod pod;
    try {
      pod = pods().withName(name).waitUntilCondition(p -> p == null || ready(p) || finished(p) || failure(p).isPresent(),
          k8s.podReadyTimeoutMs(), TimeUnit.MILLISECONDS);
    } catch (KubernetesClientException timedOut) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "pod " + name + " was not Ready within "
          + k8s.podReadyTimeoutMs() + " ms (WORK_K8S_POD_READY_TIMEOUT_MS)" + pod(name).flatMap(KubernetesSandboxDriver::failure)
          .map(reason -> ": " + reason).orElse(""), timedOut);
    }
    if (pod == null || !ready(pod)) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "pod " + name + " did not start: "
          + (pod == null ? "it was deleted" : failure(pod).orElse("phase " + pod.getStatus().getPhase())));
    }
  }

  /** Deletes the Pod, waits until it is gone, then deletes its egress NetworkPolicy if it has one. */
  private void deleteAndWait(String name) {
    PodResource pod = pods().withName(name);
    pod.withGracePeriod(PodBlueprint.GRACE_SECONDS).delete();
    try {
      pod.waitUntilCondition(Objects::isNull, k8s.podGoneTimeoutMs(), TimeUnit.MILLISECONDS);
    } catch (KubernetesClientException timedOut) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "pod " + name + " was not gone within "
          + k8s.podGoneTimeoutMs() + " ms (WORK_K8S_POD_GONE_TIMEOUT_MS)", timedOut);
    }
    networkPolicies().withName(EgressPolicyBlueprint.name(name)).delete();
  }

  private void deleteQuietly(String name) {
    try {
      pods().withName(name).delete();
    } catch (RuntimeException e) {
      Log.warnf("could not delete refused pod %s: %s", name, e.getMessage());
    }
  }

  /** Annotations: the Docker label map (same keys and values); the PVC's too, without hash and policy. */
  private Map<String, String> labels(SandboxKey key, SandboxSpec spec, String policyLabel) {
    Map<String, String> labels = new HashMap<>(key.labels(settings.instance()));
    labels.put(SandboxLabels.POLICY_HASH, spec.hash());
    if (policyLabel != null) {
      labels.put(SandboxLabels.POLICY, policyLabel);
    }
    return labels;
  }

  private Map<String, String> selector() {
    return Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.INSTANCE, settings.instance());
  }

  private String podName(SandboxKey key) {
    return ResourceNames.of(key.container(settings.instance()));
  }

  private String claimName(SandboxKey key) {
    return ResourceNames.of(key.volume(settings.instance()));
  }

  private NonNamespaceOperation<Pod, PodList, PodResource> pods() {
    return client.pods().inNamespace(k8s.namespace());
  }

  private NonNamespaceOperation<NetworkPolicy, NetworkPolicyList, Resource<NetworkPolicy>> networkPolicies() {
    return client.network().v1().networkPolicies().inNamespace(k8s.namespace());
  }

  private Optional<Pod> pod(String name) {
    return Optional.ofNullable(pods().withName(name).get());
  }

  private Optional<PersistentVolumeClaim> claim(String name) {
    return Optional.ofNullable(client.persistentVolumeClaims().inNamespace(k8s.namespace()).withName(name).get());
  }

  private static SandboxInstance instance(Pod pod) {
    String state = pod.getMetadata().getDeletionTimestamp() != null || finished(pod) ? "stopped" : ready(pod) ? "running" : "created";
    return new SandboxInstance(pod.getMetadata().getName(), pod.getMetadata().getName(), state, workcellLabels(pod));
  }

  private static ManagedVolume volume(PersistentVolumeClaim claim) {
    return new ManagedVolume(claim.getMetadata().getName(), workcellLabels(claim));
  }

  /** Workcell's labels of a resource: its labels, overlaid by its annotations (which hold the values labels cannot). */
  private static Map<String, String> workcellLabels(HasMetadata resource) {
    Map<String, String> out = new HashMap<>();
    Stream.of(labelsOf(resource), resource.getMetadata().getAnnotations() == null ? Map.<String, String>of()
        : resource.getMetadata().getAnnotations()).forEach(map -> map.forEach((key, value) -> {
          if (key.startsWith("dev.workcell.")) {
            out.put(key, value);
          }
        }));
    return out;
  }

  private static Map<String, String> labelsOf(HasMetadata resource) {
    return resource.getMetadata().getLabels() == null ? Map.of() : resource.getMetadata().getLabels();
  }

  private static boolean ready(Pod pod) {
    return pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()) && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static boolean finished(Pod pod) {
    return pod.getStatus() != null && ("Succeeded".equals(pod.getStatus().getPhase()) || "Failed".equals(pod.getStatus().getPhase()));
  }

  /**
   * Why the Pod cannot run, when its image or celld's install is to blame: like Docker's exit 126/127
   * of the idle process, plus the kubelet's reasons for a container it could not even start.
   */
  private static Optional<String> failure(Pod pod) {
    if (pod.getStatus() == null) {
      return Optional.empty();
    }
    for (ContainerStatus status : Stream.concat(list(pod.getStatus().getInitContainerStatuses()), list(pod.getStatus().getContainerStatuses())).toList()) {
      var state = status.getState();
      if (state == null) {
        continue;
      }
      if (state.getWaiting() != null && STUCK.contains(state.getWaiting().getReason())) {
        return Optional.of("container " + status.getName() + " (image " + status.getImage() + ") cannot start: "
            + state.getWaiting().getReason() + " " + Objects.toString(state.getWaiting().getMessage(), ""));
      }
      var terminated = state.getTerminated();
      if (terminated != null && terminated.getExitCode() != null && terminated.getExitCode() != 0) {
        return Optional.of(PodBlueprint.CELLD_INSTALLER.equals(status.getName())
            ? "celld could not be copied from image " + status.getImage() + " (exit " + terminated.getExitCode() + "): it needs "
                + PodBlueprint.CELLD_IN_IMAGE + " and cp"
            : "the sandbox exited at start (code " + terminated.getExitCode() + "): its image " + status.getImage()
                + " must provide sleep on PATH and /bin/sh (see sandbox-service README)");
      }
    }
    return Optional.empty();
  }

  private static Stream<ContainerStatus> list(List<ContainerStatus> statuses) {
    return statuses == null ? Stream.empty() : statuses.stream();
  }

  private static <T> T call(String action, Supplier<T> work) {
    return DriverCalls.call(action, work, KubernetesErrors::translate);
  }

  private static void run(String action, Runnable work) {
    DriverCalls.run(action, work, KubernetesErrors::translate);
  }
}
