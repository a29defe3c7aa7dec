package dev.workcell.sandbox.egress;

import dev.workcell.sandbox.config.SandboxSettings;
import java.util.List;

/**
 * The internal network of allowlisted sandboxes (decision 0012) and what a sandbox on it is told:
 * the proxy on the network's gateway, in the variables every common HTTP client reads.
 */
public final class EgressNetwork {

  private EgressNetwork() {}

  /** {@code workcell.sandbox.egress.network-name}, else the sandbox network's name plus {@code -egress}. */
  public static String name(SandboxSettings settings) {
    return settings.egress().networkName().orElse(settings.networkName() + "-egress");
  }

  public static String proxyUrl(String gateway, int port) {
    return "http://" + gateway + ":" + port;
  }

  /** The container environment of a sandbox on the egress network. */
  public static List<String> proxyEnv(String proxyUrl) {
    return List.of("HTTP_PROXY=" + proxyUrl, "HTTPS_PROXY=" + proxyUrl, "http_proxy=" + proxyUrl, "https_proxy=" + proxyUrl,
        "NO_PROXY=localhost,127.0.0.1", "no_proxy=localhost,127.0.0.1");
  }
}
