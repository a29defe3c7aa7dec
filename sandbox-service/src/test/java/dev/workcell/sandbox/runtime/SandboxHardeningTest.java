package dev.workcell.sandbox.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Network;
import com.github.dockerjava.api.model.Ports;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.testing.SandboxCleanupResource;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TaskServiceFixture;
import dev.workcell.sandbox.testing.TestDocker;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every hardening property, read back from {@code docker inspect} of a real sandbox and from inside it. */
@QuarkusTest
@WithTestResource(value = SandboxCleanupResource.class, scope = TestResourceScope.GLOBAL)
class SandboxHardeningTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Inject
  TaskServiceFixture taskService;

  @Test
  void inspectShowsTheWholeHardeningProfile() {
    SandboxRef ref = sandboxes.shared();
    InspectContainerResponse inspect = docker.inspectContainerCmd(SandboxNames.container(ref.taskId())).exec();
    var config = inspect.getConfig();
    var host = inspect.getHostConfig();

    assertThat(inspect.getState().getRunning()).isTrue();
    // Root runs only --init, the idle sleep and celld's exec (which drops to its own user); commands are uid 1000.
    assertThat(config.getUser()).isEqualTo("0:0");
    assertThat(config.getWorkingDir()).isEqualTo("/workspace");
    assertThat(host.getReadonlyRootfs()).isTrue();
    assertThat(host.getTmpFs()).containsOnlyKeys("/tmp");
    assertThat(host.getTmpFs().get("/tmp")).contains("nosuid", "nodev", "size=");
    assertThat(host.getCapDrop()).containsExactly(Capability.ALL);
    // celld's alone: commands drop them at execve (CelldOutOfReachTest).
    assertThat(host.getCapAdd()).containsExactlyInAnyOrder(Capability.KILL, Capability.SETGID, Capability.SETUID);
    assertThat(host.getSecurityOpts()).containsExactly("no-new-privileges", SeccompProfile.SECURITY_OPT);
    assertThat(host.getPrivileged()).isFalse();
    assertThat(host.getInit()).isTrue();
    assertThat(host.getMemory()).isEqualTo(2L << 30);
    assertThat(host.getMemorySwap()).isEqualTo(host.getMemory());
    // WORK_CPU_LIMIT (2) is a ceiling only below the host's cores; every sandbox has the same CPU weight.
    int cores = docker.infoCmd().exec().getNCPU();
    assertThat(host.getNanoCPUs()).isEqualTo(cores <= 2 ? 0L : 2_000_000_000L);
    assertThat(host.getCpuShares()).isEqualTo(1024);
    assertThat(host.getPidsLimit()).isEqualTo(256L);
    assertThat(host.getNetworkMode()).isEqualTo(TestDocker.NETWORK);
    assertThat(inspect.getNetworkSettings().getNetworks()).containsOnlyKeys(TestDocker.NETWORK);
    assertThat(host.getBinds()).isNullOrEmpty();
    // The workspace volume, celld's volume read-only, and celld's socket directory of this sandbox alone, read-only.
    assertThat(inspect.getMounts()).hasSize(3);
    assertThat(inspect.getMounts()).filteredOn(mount -> "/opt/workcell".equals(mount.getDestination().getPath())).singleElement()
        .satisfies(mount -> {
          assertThat(mount.getName()).startsWith("workcell-test-sandbox-service-celld-");
          assertThat(mount.getRW()).isFalse();
        });
    assertThat(inspect.getMounts()).filteredOn(mount -> "/workspace".equals(mount.getDestination().getPath())).singleElement()
        .satisfies(mount -> {
          assertThat(mount.getName()).isEqualTo(SandboxNames.volume(ref.taskId()));
          assertThat(mount.getRW()).isTrue();
        });
    assertThat(inspect.getMounts()).filteredOn(mount -> "/run/workcell".equals(mount.getDestination().getPath())).singleElement()
        .satisfies(mount -> {
          assertThat(mount.getSource()).startsWith("/run/workcell/cells/test-sandbox-service/").matches(".*/[0-9a-f]{16}");
          assertThat(mount.getRW()).isFalse();
        });
    Map<ExposedPort, Ports.Binding[]> published = inspect.getNetworkSettings().getPorts().getBindings();
    assertThat(published).containsOnlyKeys(ExposedPort.tcp(4173));
    assertThat(published.get(ExposedPort.tcp(4173))).singleElement().satisfies(binding -> {
      assertThat(binding.getHostIp()).isEqualTo("127.0.0.1");
      assertThat(Integer.parseInt(binding.getHostPortSpec())).isPositive();
    });
    assertThat(config.getLabels())
        .containsEntry(SandboxLabels.MANAGED, "true")
        .containsEntry(SandboxLabels.TASK, ref.taskId())
        .containsEntry(SandboxLabels.OWNER, ref.ownerId())
        .containsKey(SandboxLabels.POLICY_HASH);
    assertThat(config.getLabels().get(SandboxLabels.POLICY_HASH)).matches("[0-9a-f]{64}");
  }

  @Test
  void theSandboxNetworkIsTheManagedBridgeWithoutInterContainerTraffic() {
    sandboxes.shared();
    Network network = docker.inspectNetworkCmd().withNetworkId(TestDocker.NETWORK).exec();
    assertThat(network.getDriver()).isEqualTo("bridge");
    assertThat(network.getLabels()).containsEntry(SandboxLabels.MANAGED, "true");
    assertThat(network.getOptions()).containsEntry("com.docker.network.bridge.enable_icc", "false");
    // The launcher's firewall closes every wcsbx-* interface, this one included (decision 0008).
    assertThat(network.getOptions().get("com.docker.network.bridge.name")).matches("wcsbx-[0-9a-f]{9}");
  }

  @Test
  void insideTheSandboxThereIsNoPrivilegeToGain() {
    SandboxRef ref = sandboxes.shared();
    CommandResult result = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref,
        "id -u; id -g; grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status; "
            + "touch /rootfs-probe 2>&1 || echo ro-root; grep ' /tmp ' /proc/mounts; pwd; "
            + "touch /run/workcell/planted 2>/dev/null || echo ro-celld-dir; echo celld-dir-entries=$(ls -A /run/workcell | wc -l)",
        30));
    assertThat(result.exitCode()).isZero();
    assertThat(result.stdout())
        .contains("1000\n1000\n")
        .contains("CapEff:\t0000000000000000")
        // KILL, SETGID and SETUID stay in the bounding set: no_new_privs keeps them out of reach.
        .contains("CapBnd:\t00000000000000e0")
        .contains("NoNewPrivs:\t1")
        .contains("ro-root")
        .contains("/workspace")
        // Nothing can be planted where celld dials in, and once it did the socket is gone.
        .contains("ro-celld-dir")
        .contains("celld-dir-entries=0");
    assertThat(result.stdout().lines().filter(line -> line.contains(" /tmp ")).findFirst().orElseThrow())
        .contains("nosuid").contains("nodev");
  }

  @Test
  void aPolicyWithoutNetworkGetsNoNetworkAndNoPublishedPort() {
    SandboxRef ref = sandboxes.newTask("offline-owner");
    try {
      taskService.policy(ref.taskId(), "512m", "0.5", 64, false);
      var state = sandboxes.ensure(ref);
      assertThat(state.state()).isEqualTo("running");
      assertThat(state.network()).isFalse();
      InspectContainerResponse inspect = docker.inspectContainerCmd(state.containerId()).exec();
      assertThat(inspect.getHostConfig().getNetworkMode()).isEqualTo("none");
      var bindings = inspect.getHostConfig().getPortBindings();
      assertThat(bindings == null ? Map.of() : bindings.getBindings()).isEmpty();
      assertThat(inspect.getHostConfig().getMemory()).isEqualTo(512L << 20);
      assertThat(inspect.getHostConfig().getMemorySwap()).isEqualTo(512L << 20);
      assertThat(inspect.getHostConfig().getNanoCPUs()).isEqualTo(500_000_000L);
      assertThat(inspect.getHostConfig().getPidsLimit()).isEqualTo(64L);
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }
}
