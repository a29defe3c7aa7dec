package dev.workcell.sandbox.kubernetes.client;

import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.kubernetes.config.KubernetesSettings;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxSpec;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A Kubernetes driver on a mock API server's client, configured as a test asks; and the kubelet's part, played by hand. */
public final class KubernetesTestDrivers {

  public static final String INSTANCE = "k8s-test";
  public static final long WORKSPACE_BYTES = 3L << 30;

  private KubernetesTestDrivers() {}

  /** {@code extra}: more {@code workcell.*} properties over the test defaults. */
  public static KubernetesSandboxDriver driver(KubernetesClient client, String namespace, Map<String, String> extra) {
    SmallRyeConfig config = config(namespace, extra);
    return new KubernetesSandboxDriver(client, config.getConfigMapping(SandboxSettings.class),
        config.getConfigMapping(KubernetesSettings.class), new RequestQueueBudget(4 << 20, 64 << 20), key -> WORKSPACE_BYTES);
  }

  /** The Kubernetes settings of the same configuration. */
  public static KubernetesSettings settings(String namespace, Map<String, String> extra) {
    return config(namespace, extra).getConfigMapping(KubernetesSettings.class);
  }

  private static SmallRyeConfig config(String namespace, Map<String, String> extra) {
    Map<String, String> values = new HashMap<>(Map.of("workcell.sandbox.instance", INSTANCE, "workcell.sandbox.backend", "kubernetes",
        "workcell.kubernetes.namespace", namespace, "workcell.kubernetes.storage-class", "fast-ssd",
        "workcell.kubernetes.pod-ready-timeout-ms", "5000", "workcell.kubernetes.pod-gone-timeout-ms", "5000"));
    values.putAll(extra);
    return new SmallRyeConfigBuilder()
        .withMapping(SandboxSettings.class).withMapping(KubernetesSettings.class)
        .withConverter(Duration.class, 100, new DurationConverter()) // Quarkus' "3s"-style durations
        .withDefaultValues(values)
        .build();
  }

  /** A task sandbox without network. */
  public static SandboxSpec spec() {
    return new SandboxSpec("workcell/sandbox:dev", 1L << 30, 0, 1024, 256, 64L << 20, false, "none", List.of(), 0, "",
        SandboxHardening.WORKSPACE, "");
  }

  /** The exec subresource's path as fabric8 asks for it (no TTY: celld's channel). */
  public static String execPath(String namespace, String pod, String... command) {
    StringBuilder path = new StringBuilder("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/exec?");
    for (String part : command) {
      path.append("command=").append(part).append('&');
    }
    return path.append("container=sandbox&stdin=true&stdout=true&stderr=true").toString();
  }

  /** What the kubelet would write once the Pod's containers run. */
  public static void markReady(KubernetesClient client, String namespace, String name, String ip) {
    client.pods().inNamespace(namespace).withName(name).editStatus(pod -> new PodBuilder(pod).withStatus(new PodStatusBuilder()
        .withPhase("Running").withPodIP(ip).withConditions(new PodConditionBuilder().withType("Ready").withStatus("True").build()).build()).build());
  }
}
