package dev.workcell.sandbox.kubernetes.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.kubernetes.config.KubernetesSettingsValidator;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Egress allowlists on the Kubernetes backend: the driver writes a NetworkPolicy per allowlisted
 * sandbox with the Pod, allowing the public addresses its names resolve to (never private ones, nor
 * {@code blockedEgressCidrs}), and deletes it with the Pod. Names resolve through the egress
 * settings' resolve-override here, so no DNS is asked.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class EgressNetworkPolicyTest {

  private static final String NAMESPACE = "sandboxes-egress";
  /** One public name, one that resolves privately, one in a blocked range, one more public. */
  private static final String RESOLVE = "pypi.org=151.101.0.223,inside.test=10.0.0.5,metadata.test=169.254.169.254,"
      + "blocked.test=203.0.113.9,files.test=198.51.100.7,v6.test=2001:db8::7";

  static KubernetesClient client;

  private KubernetesSandboxDriver driver;

  @BeforeEach
  void clean() {
    client.pods().inNamespace(NAMESPACE).delete();
    client.persistentVolumeClaims().inNamespace(NAMESPACE).delete();
    client.network().v1().networkPolicies().inNamespace(NAMESPACE).delete();
    driver = KubernetesTestDrivers.driver(client, NAMESPACE, Map.of("workcell.sandbox.egress.resolve-override", RESOLVE,
        "workcell.kubernetes.blocked-egress-cidrs", "203.0.113.0/24,2001:db8::/32"));
  }

  /** A network-enabled sandbox whose policy has an allowlist: the spec names the egress network (SandboxSpecs). */
  private static SandboxSpec allowlisted() {
    return new SandboxSpec("workcell/sandbox:dev", 1L << 30, 0, 1024, 256, 64L << 20, true, "workcell-sandbox-egress", List.of(),
        4173, "127.0.0.1", SandboxHardening.WORKSPACE, "");
  }

  private static String policy(String... names) {
    return "{\"network\":true,\"egressAllowlist\":[" + String.join(",", List.of(names).stream().map(n -> "\"" + n + "\"").toList()) + "]}";
  }

  @Test
  void anAllowlistedPodGetsAPolicyAllowingOnlyThePublicUnblockedAddressesOfItsNamesAndDns() {
    SandboxKey key = SandboxKey.task("e1", "alice");
    SandboxInstance created = driver.create(key, allowlisted(),
        policy("pypi.org", "inside.test", "metadata.test", "blocked.test", "files.test", "v6.test"));

    Pod pod = client.pods().inNamespace(NAMESPACE).withName(created.name()).get();
    assertThat(pod.getMetadata().getLabels()).containsEntry("workcell.dev/sandbox", created.name())
        .containsEntry("workcell.dev/egress", "allowlist")
        .as("not the network-enabled label: the chart's policy for it opens the internet").doesNotContainKey("workcell.dev/network");

    NetworkPolicy policy = egressPolicy(created);
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of("workcell.dev/sandbox", created.name()));
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Egress");
    assertThat(key.owns(policy.getMetadata().getLabels(), KubernetesTestDrivers.INSTANCE)).isTrue();
    List<NetworkPolicyEgressRule> rules = policy.getSpec().getEgress();
    assertThat(rules).hasSize(2);
    assertThat(rules.get(0).getTo()).extracting(peer -> peer.getIpBlock().getCidr())
        .containsExactlyInAnyOrder("151.101.0.223/32", "198.51.100.7/32");
    assertThat(rules.get(0).getTo()).allSatisfy(peer -> assertThat(peer.getIpBlock().getExcept()).isNullOrEmpty());
    assertThat(rules.get(0).getPorts()).as("any port, as the proxy's CONNECT").isNullOrEmpty();
    assertThat(rules.get(1).getTo()).singleElement().satisfies(peer -> {
      assertThat(peer.getNamespaceSelector().getMatchLabels()).isEqualTo(Map.of("kubernetes.io/metadata.name", "kube-system"));
      assertThat(peer.getPodSelector().getMatchLabels()).isEqualTo(Map.of("k8s-app", "kube-dns"));
    });
    assertThat(rules.get(1).getPorts()).extracting(p -> p.getProtocol() + "/" + p.getPort().getIntVal()).containsExactly("UDP/53", "TCP/53");

    assertThat(driver.drift(key, created, allowlisted())).isEmpty();
    client.network().v1().networkPolicies().inNamespace(NAMESPACE).withName(policy.getMetadata().getName()).delete();
    assertThat(driver.drift(key, created, allowlisted())).contains("its egress NetworkPolicy is missing");
  }

  @Test
  void anEmptyListOrNamesWithNoUsableAddressAllowNothingNotEvenDns() {
    SandboxInstance empty = driver.create(SandboxKey.task("e2", "alice"), allowlisted(), policy());
    assertThat(egressPolicy(empty).getSpec().getEgress()).isEmpty();
    SandboxInstance privateOnly = driver.create(SandboxKey.task("e3", "alice"), allowlisted(), policy("inside.test", "blocked.test"));
    assertThat(egressPolicy(privateOnly).getSpec().getEgress()).as("never a rule with no peers (that allows everything)").isEmpty();
  }

  @Test
  void stopDeletesThePolicyWithThePodAndStartWritesItAgainWithThePod() throws Exception {
    SandboxKey key = SandboxKey.task("e4", "alice");
    SandboxInstance created = driver.create(key, allowlisted(), policy("pypi.org"));
    KubernetesTestDrivers.markReady(client, NAMESPACE, created.name(), "10.0.3.4");
    assertThat(driver.previewEndpoint(created)).get().satisfies(e -> assertThat(e.hostAddress()).isEqualTo("10.0.3.4"));

    driver.stop(created);
    assertThat(client.pods().inNamespace(NAMESPACE).withName(created.name()).get()).isNull();
    assertThat(client.network().v1().networkPolicies().inNamespace(NAMESPACE).list().getItems()).isEmpty();

    CompletableFuture<Void> start = CompletableFuture.runAsync(() -> driver.start(created, allowlisted()));
    for (int i = 0; i < 100 && client.pods().inNamespace(NAMESPACE).withName(created.name()).get() == null; i++) {
      Thread.sleep(50);
    }
    assertThat(egressPolicy(created).getSpec().getEgress().getFirst().getTo()).extracting(p -> p.getIpBlock().getCidr())
        .containsExactly("151.101.0.223/32");
    KubernetesTestDrivers.markReady(client, NAMESPACE, created.name(), "10.0.3.5");
    start.get(5, TimeUnit.SECONDS);
    assertThat(driver.drift(key, created, allowlisted())).isEmpty();

    driver.removeContainer(created);
    assertThat(client.network().v1().networkPolicies().inNamespace(NAMESPACE).list().getItems()).isEmpty();
  }

  @Test
  void wildcardsAreRefusedAndAPolicyNameHeldByAnotherTaskIsRefused() {
    assertThatThrownBy(() -> driver.create(SandboxKey.task("e5", "alice"), allowlisted(), policy("pypi.org", "*.github.com")))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE))
        .hasMessageContaining("*.github.com");
    assertThat(client.pods().inNamespace(NAMESPACE).withName("workcell-task-e5").get()).isNull();

    client.network().v1().networkPolicies().inNamespace(NAMESPACE).resource(new NetworkPolicyBuilder().withNewMetadata()
        .withName("workcell-task-e6-egress").withLabels(Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.INSTANCE,
            KubernetesTestDrivers.INSTANCE, SandboxLabels.TASK, "e6", SandboxLabels.OWNER, "mallory")).endMetadata()
        .withNewSpec().withNewPodSelector().endPodSelector().endSpec().build()).create();
    assertThatThrownBy(() -> driver.create(SandboxKey.task("e6", "alice"), allowlisted(), policy("pypi.org")))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT));
    assertThat(client.pods().inNamespace(NAMESPACE).withName("workcell-task-e6").get()).isNull();
  }

  @Test
  void openNetworkSandboxesKeepTheNetworkLabelAndGetNoPolicyOfTheirOwn() {
    SandboxSpec open = new SandboxSpec("workcell/sandbox:dev", 1L << 30, 0, 1024, 256, 64L << 20, true, "workcell-sandbox", List.of(),
        4173, "127.0.0.1", SandboxHardening.WORKSPACE, "");
    SandboxInstance created = driver.create(SandboxKey.task("e7", "alice"), open, "{\"network\":true}");
    assertThat(client.pods().inNamespace(NAMESPACE).withName(created.name()).get().getMetadata().getLabels())
        .containsEntry("workcell.dev/network", "enabled").doesNotContainKey("workcell.dev/egress");
    assertThat(client.network().v1().networkPolicies().inNamespace(NAMESPACE).list().getItems()).isEmpty();
  }

  @Test
  void blockedEgressCidrsMustBeAddressLiteralsWithAPrefix() {
    assertThat(KubernetesSettingsValidator.problems(KubernetesTestDrivers.settings(NAMESPACE,
        Map.of("workcell.kubernetes.blocked-egress-cidrs", "203.0.113.0/24,2001:db8::/32")))).isEmpty();
    assertThat(KubernetesSettingsValidator.problems(KubernetesTestDrivers.settings(NAMESPACE,
        Map.of("workcell.kubernetes.blocked-egress-cidrs", "203.0.113.0,10.0.0.0/33,example.com/8,::1/129"))))
        .hasSize(4).allMatch(problem -> problem.contains("blocked-egress-cidrs"));
  }

  private static NetworkPolicy egressPolicy(SandboxInstance instance) {
    NetworkPolicy policy = client.network().v1().networkPolicies().inNamespace(NAMESPACE).withName(instance.name() + "-egress").get();
    assertThat(policy).as("NetworkPolicy of %s", instance.name()).isNotNull();
    return policy;
  }
}
