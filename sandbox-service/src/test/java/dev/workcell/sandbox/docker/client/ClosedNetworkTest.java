package dev.workcell.sandbox.docker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Network;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The closed sandbox network against the real engine and the launcher's firewall: from inside a
 * sandbox the host (every address, listeners on 0.0.0.0 and on the bridge gateway), cloud metadata
 * and private ranges give no answer, while the sandbox's own DNS still works.
 */
@QuarkusTest
class ClosedNetworkTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  /** 124: timeout killed the attempt (the packet was dropped); 0: connected; else refused or unreachable. */
  private CommandResult connect(SandboxRef ref, String host, int port) {
    return sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref,
        "timeout 2 bash -c 'exec 3<>/dev/tcp/" + host + "/" + port + "'", 10));
  }

  @Test
  void aSandboxGetsNoAnswerFromTheHostOnAnyAddress() throws IOException {
    SandboxRef ref = sandboxes.shared();
    String gateway = gateway(docker.inspectNetworkCmd().withNetworkId(TestDocker.NETWORK).exec());
    try (ServerSocket any = listen("0.0.0.0"); ServerSocket onGateway = listen(gateway)) {
      List<String> hostAddresses = hostAddresses();
      assertThat(hostAddresses).contains(gateway);
      for (String address : hostAddresses) {
        CommandResult result = connect(ref, address, any.getLocalPort());
        assertThat(result.exitCode()).as("%s:%d (0.0.0.0 listener)", address, any.getLocalPort()).isEqualTo(124);
        assertThat(result.durationMs()).isLessThan(5_000);
      }
      assertThat(connect(ref, gateway, onGateway.getLocalPort()).exitCode()).isEqualTo(124);
      assertThat(connect(ref, gateway, 22).exitCode()).as("a closed host port is dropped, not refused").isEqualTo(124);
      assertNothingArrived(any);
      assertNothingArrived(onGateway);
    }
  }

  @Test
  void metadataAndPrivateRangesAreDroppedButDnsWorks() {
    SandboxRef ref = sandboxes.shared();
    for (String address : List.of("169.254.169.254", "10.0.0.1", "172.16.0.1", "192.168.0.1", "100.64.0.1")) {
      CommandResult result = connect(ref, address, 80);
      assertThat(result.exitCode()).as(address).isNotZero();
      assertThat(result.durationMs()).isLessThan(5_000);
    }
    CommandResult dns = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "grep -c '^nameserver' /etc/resolv.conf", 10));
    assertThat(dns.stdout().strip()).isNotEqualTo("0");
    // Docker's embedded resolver answers inside the sandbox's own namespace: the firewall leaves it alone.
    String name = docker.inspectContainerCmd(sandboxes.ensure(ref).containerId()).exec().getName().substring(1);
    CommandResult self = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "getent hosts " + name, 10));
    assertThat(self.exitCode()).isZero();
  }

  @Test
  void aNetworkOutsideTheFirewallIsRefusedWithAStableCode() {
    String name = "workcell-open-probe-test";
    String id = docker.createNetworkCmd().withName(name).withDriver("bridge")
        .withLabels(Map.of(TestDocker.TEST_LABEL, "true")).exec().getId();
    try {
      ClosedNetworkCheck check = new ClosedNetworkCheck(docker, new HelperContainer(docker, TestDocker.INSTANCE), true);
      String image = System.getenv().getOrDefault("WORKCELL_SANDBOX_RUNTIME_IMAGE", "workcell/sandbox:dev");
      assertThatThrownBy(() -> check.require(name, id, image)).isInstanceOfSatisfying(WorkcellException.class, e -> {
        assertThat(e.code()).isEqualTo(ErrorCode.SANDBOX_NETWORK_UNVERIFIED);
        assertThat(e.getMessage()).contains("the host at");
      });
      // Refused again at once, without a second probe, until the retry interval passes.
      assertThatThrownBy(() -> check.require(name, id, image)).isInstanceOf(WorkcellException.class);
    } finally {
      docker.removeNetworkCmd(id).exec();
    }
  }

  private static ServerSocket listen(String address) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
    socket.setSoTimeout(200);
    return socket;
  }

  private static void assertNothingArrived(ServerSocket socket) {
    assertThatThrownBy(socket::accept).isInstanceOf(SocketTimeoutException.class);
  }

  private static List<String> hostAddresses() throws IOException {
    return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
        .flatMap(nic -> nic.getInterfaceAddresses().stream())
        .map(a -> a.getAddress())
        .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
        .map(InetAddress::getHostAddress).toList();
  }

  private static String gateway(Network network) {
    return network.getIpam().getConfig().stream().map(Network.Ipam.Config::getGateway).filter(g -> g != null && g.contains("."))
        .findFirst().orElseThrow();
  }
}
