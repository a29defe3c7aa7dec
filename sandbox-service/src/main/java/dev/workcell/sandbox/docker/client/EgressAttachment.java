package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Network;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.egress.EgressNetwork;
import dev.workcell.sandbox.egress.EgressProxy;
import dev.workcell.sandbox.runtime.PreviewEndpoint;
import dev.workcell.sandbox.runtime.SandboxSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the Docker driver does for a sandbox with an egress allowlist (decision 0012): it sits on
 * the internal egress network, whose gateway runs the egress proxy, and its environment names that
 * proxy. A sandbox whose proxy variables name another address (the network was recreated, the port
 * changed) drifts. Its preview is reached at its own address (an internal network publishes no
 * ports; the host is on the bridge).
 */
final class EgressAttachment {

  private final DockerClient docker;
  private final Supplier<EgressProxy> proxies;
  private final String network;

  /** {@code proxies} gives null: no egress proxy in this driver (a test's driver without CDI). */
  EgressAttachment(DockerClient docker, Supplier<EgressProxy> proxies, String network) {
    this.docker = docker;
    this.proxies = proxies;
    this.network = network;
  }

  boolean on(SandboxSpec spec) {
    return spec.network() && network.equals(spec.networkName());
  }

  ManagedNetwork.Kind kind(String networkName) {
    return network.equals(networkName) ? ManagedNetwork.Kind.EGRESS : ManagedNetwork.Kind.OPEN;
  }

  /** The proxy listens on the egress network's gateway; its URL. */
  String listen(String networkId) {
    EgressProxy proxy = proxies.get();
    if (proxy == null) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "this sandbox-service has no egress proxy");
    }
    String gateway = gateway(docker.inspectNetworkCmd().withNetworkId(networkId).exec());
    proxy.listenOn(gateway);
    return EgressNetwork.proxyUrl(gateway, proxy.port());
  }

  /** The create call with the proxy variables added (after whatever the blueprint set). */
  CreateContainerCmd withProxyEnv(CreateContainerCmd cmd, SandboxSpec spec, String networkId) {
    if (!on(spec)) {
      return cmd;
    }
    List<String> env = new ArrayList<>(cmd.getEnv() == null ? List.of() : Arrays.asList(cmd.getEnv()));
    env.addAll(EgressNetwork.proxyEnv(listen(networkId)));
    return cmd.withEnv(env);
  }

  /** A sandbox on the egress network whose proxy variables do not name the proxy of the network as it is now. */
  Optional<String> drift(InspectContainerResponse inspect, SandboxSpec spec, String networkId) {
    if (!on(spec)) {
      return Optional.empty();
    }
    String expected = "HTTPS_PROXY=" + listen(networkId);
    String[] env = inspect.getConfig() == null ? null : inspect.getConfig().getEnv();
    boolean found = env != null && Arrays.asList(env).contains(expected);
    return found ? Optional.empty() : Optional.of("env: expected " + expected);
  }

  /** The preview of a sandbox on the egress network: its own address there. */
  Optional<PreviewEndpoint> previewEndpoint(InspectContainerResponse inspect, int port) {
    var networks = inspect.getNetworkSettings() == null ? null : inspect.getNetworkSettings().getNetworks();
    var endpoint = networks == null ? null : networks.get(network);
    if (endpoint == null || endpoint.getIpAddress() == null || endpoint.getIpAddress().isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new PreviewEndpoint(endpoint.getIpAddress(), port));
  }

  private String gateway(Network inspected) {
    if (inspected.getIpam() != null && inspected.getIpam().getConfig() != null) {
      for (Network.Ipam.Config config : inspected.getIpam().getConfig()) {
        if (config.getGateway() != null && config.getGateway().contains(".")) {
          return config.getGateway();
        }
      }
    }
    throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "egress network " + network + " has no IPv4 gateway for the proxy");
  }
}
