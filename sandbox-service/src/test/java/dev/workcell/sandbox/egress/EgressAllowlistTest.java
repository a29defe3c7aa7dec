package dev.workcell.sandbox.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Network;
import com.sun.net.httpserver.HttpServer;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartPreview;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TaskServiceFixture;
import io.quarkus.logging.Log;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The egress allowlist against the real engine, the launcher's firewall and the sandbox image: a
 * task whose policy allows {@code allowed.test} reaches it through the proxy (plain HTTP and a
 * CONNECT tunnel), {@code denied.test} gets 403, and nothing gets anywhere without the proxy. Then
 * the policy's list changes to {@code denied.test} and the same container sees the reverse. A
 * fixture on the host stands in for both sites (the test profile lets the proxy resolve the two
 * names to 127.0.0.1 and connect there; production refuses private destinations).
 */
@QuarkusTest
class EgressAllowlistTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  TaskServiceFixture taskService;

  @Inject
  DockerClient docker;

  @Inject
  dev.workcell.sandbox.config.SandboxSettings settings;

  /** The HTTP status curl got through the environment's proxy ({@code -p}: a CONNECT tunnel even for http). */
  private String status(SandboxRef ref, String url, boolean tunnel) {
    CommandResult result = sandboxes.run(ref, "curl -s -o /dev/null -w '%{http_code}' -m 10 " + (tunnel ? "-p " : "") + url);
    return result.stdout().strip();
  }

  /** 124: timeout killed the attempt (dropped); 0: connected; else refused or unreachable. */
  private int connect(SandboxRef ref, String host, int port) {
    return sandboxes.run(ref, "timeout 2 bash -c 'exec 3<>/dev/tcp/" + host + "/" + port + "'").exitCode();
  }

  @Test
  void onlyListedNamesGetThroughAndAChangedListAppliesToTheSameContainer() throws Exception {
    AtomicInteger served = new AtomicInteger();
    HttpServer fixture = HttpServer.create(new InetSocketAddress("0.0.0.0", 0), 16);
    fixture.createContext("/", exchange -> {
      served.incrementAndGet();
      byte[] body = ("fixture saw host " + exchange.getRequestHeaders().getFirst("Host")).getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    fixture.start();
    int port = fixture.getAddress().getPort();
    String allowed = "http://allowed.test:" + port + "/";
    String denied = "http://denied.test:" + port + "/";
    SandboxRef ref = sandboxes.newTask("egress-owner");
    try {
      taskService.egressAllowlist(ref.taskId(), List.of("allowed.test"));
      SandboxState state = sandboxes.ensure(ref);
      InspectContainerResponse inspect = docker.inspectContainerCmd(state.containerId()).exec();
      String network = EgressNetwork.name(settings);
      assertThat(inspect.getNetworkSettings().getNetworks().keySet()).containsExactly(network);
      Network egress = docker.inspectNetworkCmd().withNetworkId(network).exec();
      assertThat(egress.getInternal()).isTrue();
      assertThat(egress.getOptions()).containsEntry("com.docker.network.bridge.name", "wcsbe-" + egress.getOptions()
          .get("com.docker.network.bridge.name").substring(6));
      String gateway = egress.getIpam().getConfig().stream().map(Network.Ipam.Config::getGateway)
          .filter(g -> g != null && g.contains(".")).findFirst().orElseThrow();
      assertThat(Arrays.asList(inspect.getConfig().getEnv())).contains("HTTPS_PROXY=http://" + gateway + ":" + settings.egress().proxyPort(),
          "http_proxy=http://" + gateway + ":" + settings.egress().proxyPort());

      // Allowed: plain HTTP (absolute URL) and a CONNECT tunnel; the proxy sends the URL's host on.
      CommandResult plain = sandboxes.run(ref, "curl -sS -m 10 " + allowed);
      assertThat(plain.exitCode()).as(plain.stderr()).isZero();
      assertThat(plain.stdout()).isEqualTo("fixture saw host allowed.test:" + port);
      assertThat(sandboxes.run(ref, "curl -sS -m 10 -p " + allowed).stdout()).isEqualTo("fixture saw host allowed.test:" + port);
      // Denied: 403 from the proxy, both ways, with the reason.
      assertThat(status(ref, denied, false)).isEqualTo("403");
      CommandResult refusedTunnel = sandboxes.run(ref, "curl -sS -m 10 -p " + denied);
      assertThat(refusedTunnel.exitCode()).isNotZero();
      assertThat(refusedTunnel.stderr()).contains("403");
      assertThat(sandboxes.run(ref, "curl -s -m 10 " + denied).stdout()).contains("not on this sandbox's egress allowlist");
      // Without the proxy: no name resolves, the fixture's port on the gateway and the host's other
      // addresses give nothing, nor does any other port of the gateway.
      assertThat(sandboxes.run(ref, "getent hosts allowed.test").exitCode()).isNotZero();
      assertThat(sandboxes.run(ref, "env -u http_proxy -u HTTP_PROXY curl -sS -m 5 " + allowed).exitCode()).isNotZero();
      assertThat(connect(ref, gateway, port)).as("the fixture on the gateway, bypassing the proxy").isEqualTo(124);
      assertThat(connect(ref, gateway, 22)).as("another port of the gateway").isEqualTo(124);
      for (String address : hostAddresses()) {
        if (!address.equals(gateway)) {
          assertThat(connect(ref, address, port)).as("the fixture at %s", address).isNotZero();
        }
      }
      for (String address : List.of("169.254.169.254", "10.0.0.1", "1.1.1.1")) {
        assertThat(connect(ref, address, 80)).as(address).isNotZero();
      }
      assertThat(served.get()).as("only the two proxied requests reached the fixture").isEqualTo(2);

      // The list changes; the same container sees the reverse on its next connections.
      taskService.egressAllowlist(ref.taskId(), List.of("denied.test"));
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!status(ref, denied, true).equals("200") && System.nanoTime() < deadline) {
        Thread.sleep(250);
      }
      assertThat(status(ref, denied, true)).isEqualTo("200");
      assertThat(status(ref, denied, false)).isEqualTo("200");
      assertThat(status(ref, allowed, false)).isEqualTo("403");
      assertThat(status(ref, allowed, true)).isNotEqualTo("200");
      assertThat(sandboxes.ensure(ref).containerId()).as("not recreated").isEqualTo(state.containerId());

      // A tunnel's overhead, for the record (not asserted): the proxy's decision and its extra hop.
      CommandResult timing = sandboxes.run(ref, "for i in $(seq 20); do curl -s -o /dev/null -w '%{time_total}\\n' -m 10 -p " + denied
          + "; done | sort -n | sed -n 10p");
      Log.infof("egress: median of 20 CONNECT round trips through the proxy: %s s", timing.stdout().strip());
    } finally {
      sandboxes.deleteQuietly(ref);
      fixture.stop(0);
    }
  }

  @Test
  void aPreviewOfAnAllowlistedSandboxIsReachedOnItsBridgeAddress() throws Exception {
    SandboxRef ref = sandboxes.newTask("egress-previewer");
    try {
      taskService.egressAllowlist(ref.taskId(), List.of());
      sandboxes.ensure(ref);
      sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "index.html", "<h1>allowlisted preview</h1>", null, false));
      PreviewState started = sandboxes.call(SandboxSubjects.PREVIEW_START, new StartPreview(ref, null));
      assertThat(started.running()).isTrue();
      String address = docker.inspectContainerCmd(sandboxes.ensure(ref).containerId()).exec().getNetworkSettings().getNetworks()
          .get(EgressNetwork.name(settings)).getIpAddress();
      assertThat(started.hostAddress()).isEqualTo(address);
      var response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://" + started.hostAddress() + ":" + started.hostPort() + "/")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(response.body()).contains("allowlisted preview");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void gainingOrLosingAnAllowlistMovesTheSandboxAtItsNextStartWorkspaceKept() {
    SandboxRef ref = sandboxes.newTask("egress-switcher");
    String open = settings.networkName();
    String egress = EgressNetwork.name(settings);
    try {
      SandboxState first = sandboxes.ensure(ref);
      assertThat(networks(first)).containsExactly(open);
      sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "kept.txt", "kept", null, false));

      taskService.egressAllowlist(ref.taskId(), List.of("allowed.test"));
      assertThat(sandboxes.ensure(ref).containerId()).as("a running sandbox keeps its network").isEqualTo(first.containerId());
      sandboxes.call(SandboxSubjects.STOP, ref);
      SandboxState second = sandboxes.ensure(ref);
      assertThat(second.containerId()).isNotEqualTo(first.containerId());
      assertThat(networks(second)).containsExactly(egress);
      assertThat(sandboxes.run(ref, "cat kept.txt").stdout()).isEqualTo("kept");

      taskService.egressAllowlist(ref.taskId(), null);
      sandboxes.call(SandboxSubjects.STOP, ref);
      SandboxState third = sandboxes.ensure(ref);
      assertThat(networks(third)).containsExactly(open);
      assertThat(sandboxes.run(ref, "cat kept.txt").stdout()).isEqualTo("kept");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void aSandboxHoldsABoundedNumberOfProxyConnections() throws Exception {
    AtomicInteger served = new AtomicInteger();
    HttpServer fixture = HttpServer.create(new InetSocketAddress("0.0.0.0", 0), 16);
    fixture.createContext("/", exchange -> {
      served.incrementAndGet();
      exchange.sendResponseHeaders(200, 2);
      exchange.getResponseBody().write("ok".getBytes(StandardCharsets.UTF_8));
      exchange.close();
    });
    fixture.start();
    String url = "http://allowed.test:" + fixture.getAddress().getPort() + "/";
    SandboxRef ref = sandboxes.newTask("egress-flooder");
    try {
      taskService.egressAllowlist(ref.taskId(), List.of("allowed.test"));
      sandboxes.ensure(ref);
      // One shell holds the most idle connections a sandbox may have open; its next request is closed at once.
      CommandResult flooded = sandboxes.run(ref, "p=${HTTP_PROXY#http://}; for i in $(seq " + EgressProxy.MAX_PER_SANDBOX
          + "); do exec {fd}<>/dev/tcp/${p%:*}/${p##*:} || exit 9; done; curl -sS -m 5 " + url + "; echo \" rc=$?\"");
      assertThat(flooded.stdout()).contains(" rc=").doesNotContain(" rc=0").doesNotContain(" rc=9");
      assertThat(served.get()).isZero();
      // The shell's connections closed with it: the sandbox is served again.
      long deadline = System.nanoTime() + 15_000_000_000L;
      while (!sandboxes.run(ref, "curl -sS -m 5 " + url).stdout().equals("ok") && System.nanoTime() < deadline) {
        Thread.sleep(250);
      }
      assertThat(sandboxes.run(ref, "curl -sS -m 5 " + url).stdout()).isEqualTo("ok");
    } finally {
      sandboxes.deleteQuietly(ref);
      fixture.stop(0);
    }
  }

  private java.util.Set<String> networks(SandboxState state) {
    return docker.inspectContainerCmd(state.containerId()).exec().getNetworkSettings().getNetworks().keySet();
  }

  private static List<String> hostAddresses() throws IOException {
    return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
        .flatMap(nic -> nic.getInterfaceAddresses().stream())
        .map(a -> a.getAddress())
        .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
        .map(InetAddress::getHostAddress).toList();
  }
}
