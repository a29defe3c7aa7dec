package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Network;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import io.quarkus.logging.Log;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Proves, before the first network-enabled sandbox of a network starts, that the network is closed:
 * a probe container on it must get no answer at all from the host (its bridge gateway, several
 * ports: a missing firewall shows as a refused or accepted connection) and no connection to cloud
 * metadata or a private address. Until that holds every network-enabled sandbox is refused with
 * {@code sandbox_network_unverified}. Proven once per network id and process.
 */
final class ClosedNetworkCheck {

  private static final long RETRY_NANOS = 10_000_000_000L;
  /**
   * Exits 0 when every host port timed out (dropped) and nothing else connected; bits 1, 2, 4 say
   * what got through. Six probes in parallel, two processes each (exec: no subshell left), within
   * the helper's 16 pids.
   */
  private static final String PROBE = """
      reach() { exec timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null; }
      host=()
      for port in 22 80 8483 47913; do reach "$1" "$port" & host+=($!); done
      reach 169.254.169.254 80 & metadata=$!
      reach 10.0.0.1 80 & private=$!
      code=0
      for pid in "${host[@]}"; do wait "$pid"; [ $? -eq 124 ] || code=$((code | 1)); done
      wait "$metadata" && code=$((code | 2))
      wait "$private" && code=$((code | 4))
      exit $code
      """;

  private final DockerClient docker;
  private final HelperContainer helpers;
  private final boolean enabled;
  private final Map<String, Long> proven = new ConcurrentHashMap<>();
  private volatile long failedAt;
  private volatile String failure;

  ClosedNetworkCheck(DockerClient docker, HelperContainer helpers, boolean enabled) {
    this.docker = docker;
    this.helpers = helpers;
    this.enabled = enabled;
    if (!enabled) {
      Log.warn("workcell.sandbox.closed-network-check=false: network-enabled sandboxes start without proof that they "
          + "cannot reach the host or private addresses (only right where a NetworkPolicy or firewall of yours does it)");
    }
  }

  /** Returns when network {@code name} (id {@code networkId}) is proven closed; else {@code sandbox_network_unverified}. */
  synchronized void require(String name, String networkId, String probeImage) {
    if (!enabled || proven.containsKey(networkId)) {
      return;
    }
    if (failure != null && System.nanoTime() - failedAt < RETRY_NANOS) {
      throw unverified(failure);
    }
    String problem = probe(name, networkId, probeImage);
    if (problem == null) {
      proven.put(networkId, System.nanoTime());
      failure = null;
      Log.infof("sandbox network %s is closed: the host and private addresses do not answer its containers", name);
      return;
    }
    failure = problem;
    failedAt = System.nanoTime();
    Log.errorf("network-enabled sandboxes are refused: %s", problem);
    throw unverified(problem);
  }

  /** What got through, or null when nothing did. */
  private String probe(String name, String networkId, String probeImage) {
    String gateway = gateway(docker.inspectNetworkCmd().withNetworkId(networkId).exec());
    if (gateway == null) {
      return "network " + name + " has no IPv4 gateway to probe";
    }
    int code = helpers.run("network-probe", probeImage, "1000:1000", List.of("bash", "-c", PROBE, "probe", gateway),
        List.of(), List.of(), networkId);
    if (code == 0) {
      return null;
    }
    StringBuilder reached = new StringBuilder();
    if (code < 0 || code > 7) {
      return "the probe on network " + name + " did not run (exit " + code + ")";
    }
    if ((code & 1) != 0) {
      reached.append("the host at ").append(gateway).append(" answered; ");
    }
    if ((code & 2) != 0) {
      reached.append("169.254.169.254 (cloud metadata) accepted a connection; ");
    }
    if ((code & 4) != 0) {
      reached.append("10.0.0.1 accepted a connection; ");
    }
    return "a probe container on network " + name + " got through: " + reached
        + "run bin/lib/sandbox-firewall.sh as root (bin/workcell up does) or see docs/decisions/0008-closed-sandbox-network.md";
  }

  private static String gateway(Network network) {
    if (network.getIpam() == null || network.getIpam().getConfig() == null) {
      return null;
    }
    return network.getIpam().getConfig().stream().map(Network.Ipam.Config::getGateway)
        .filter(g -> g != null && g.contains(".")).findFirst().orElse(null);
  }

  private static WorkcellException unverified(String problem) {
    return new WorkcellException(ErrorCode.SANDBOX_NETWORK_UNVERIFIED, problem);
  }
}
