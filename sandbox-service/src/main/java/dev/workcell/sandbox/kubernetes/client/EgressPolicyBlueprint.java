package dev.workcell.sandbox.kubernetes.client;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.egress.Destinations;
import dev.workcell.sandbox.kubernetes.config.KubernetesSettings;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.quarkus.logging.Log;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The NetworkPolicy of a sandbox whose policy has an egress allowlist (decision 0012 on Docker, 0022
 * here). Docker checks names in the egress proxy; a Pod has no such proxy, so here each allowed name
 * is resolved when the Pod is created or started and the policy lets the Pod reach exactly those
 * addresses ({@code ipBlock} /32 or /128), plus the cluster DNS to look the names up. An address is
 * left out when it is not public (the proxy's ranges: private, shared, link-local, loopback,
 * multicast...) or lies in {@code blockedEgressCidrs}. A name that resolves to nothing usable adds
 * nothing; an empty list adds no rule at all, so the Pod reaches nothing, not even DNS.
 *
 * <p>Addresses, not names: a CDN address serves every name behind it, and a name that moves to a new
 * address is unreachable until the sandbox next starts. Wildcard entries ({@code *.example.com})
 * name no address and are refused rather than silently reaching nothing.
 */
final class EgressPolicyBlueprint {

  /** On every allowlisted Pod, its own name: what its NetworkPolicy selects. */
  static final String SANDBOX_LABEL = "workcell.dev/sandbox";
  /** On every allowlisted Pod instead of the network-enabled label (policies add up: that one would open the internet). */
  static final String EGRESS_LABEL = "workcell.dev/egress";
  static final String EGRESS_ALLOWLIST = "allowlist";

  private final KubernetesSettings k8s;
  private final Destinations destinations;

  EgressPolicyBlueprint(KubernetesSettings k8s, Destinations destinations) {
    this.k8s = k8s;
    this.destinations = destinations;
  }

  static String name(String pod) {
    return ResourceNames.of(pod + "-egress");
  }

  /** The policy of Pod {@code pod} reaching {@code allowlist}'s names; resolves them now (blocking). */
  NetworkPolicy policy(String pod, Map<String, String> labels, List<String> allowlist) {
    List<String> wildcards = allowlist.stream().filter(entry -> entry.startsWith("*.")).toList();
    if (!wildcards.isEmpty()) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "wildcard egress allowlist entries " + wildcards
          + " cannot be enforced on the kubernetes backend (its NetworkPolicies allow addresses, not names); list the exact names");
    }
    Set<String> cidrs = new LinkedHashSet<>();
    for (String host : allowlist) {
      try {
        for (InetAddress address : destinations.addresses(host)) {
          if (blocked(address)) {
            Log.infof("egress allowlist of pod %s: %s resolves to %s, in a blocked range: left out", pod, host, address.getHostAddress());
          } else {
            cidrs.add(address.getHostAddress() + (address instanceof Inet4Address ? "/32" : "/128"));
          }
        }
      } catch (Destinations.Refused refused) {
        Log.infof("egress allowlist of pod %s: %s left out: %s", pod, host, refused.getMessage());
      }
    }
    List<NetworkPolicyEgressRule> rules = new ArrayList<>();
    if (!cidrs.isEmpty()) {
      // Never a rule with no peers: an empty "to" would allow every destination.
      rules.add(new NetworkPolicyEgressRuleBuilder()
          .withTo(cidrs.stream().map(cidr -> new NetworkPolicyPeerBuilder().withNewIpBlock().withCidr(cidr).endIpBlock().build()).toList())
          .build());
      if (k8s.allowClusterDns()) {
        rules.add(clusterDns());
      }
    }
    return new NetworkPolicyBuilder()
        .withNewMetadata().withName(name(pod)).withNamespace(k8s.namespace()).withLabels(PodBlueprint.labels(labels))
        .withAnnotations(labels).endMetadata()
        .withNewSpec()
        .withNewPodSelector().addToMatchLabels(SANDBOX_LABEL, pod).endPodSelector()
        .withPolicyTypes("Egress")
        .withEgress(rules)
        .endSpec()
        .build();
  }

  private boolean blocked(InetAddress address) {
    return !Destinations.isPublic(address)
        || k8s.blockedEgressCidrs().orElse(List.of()).stream().anyMatch(cidr -> Destinations.contains(cidr, address));
  }

  /** Port 53 of kube-dns in kube-system, as the chart's rule for network-enabled Pods. */
  private static NetworkPolicyEgressRule clusterDns() {
    NetworkPolicyPeer dns = new NetworkPolicyPeerBuilder()
        .withNewNamespaceSelector().addToMatchLabels("kubernetes.io/metadata.name", "kube-system").endNamespaceSelector()
        .withNewPodSelector().addToMatchLabels("k8s-app", "kube-dns").endPodSelector()
        .build();
    return new NetworkPolicyEgressRuleBuilder().withTo(dns)
        .addNewPort().withProtocol("UDP").withPort(new IntOrString(53)).endPort()
        .addNewPort().withProtocol("TCP").withPort(new IntOrString(53)).endPort()
        .build();
  }
}
