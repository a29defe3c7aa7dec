package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * celld runs as a user of its own (decision 0007): the workload can neither signal, ptrace nor read
 * it, while files and commands stay uid 1000's. Every check here runs as the workload would.
 */
@QuarkusTest
class CelldOutOfReachTest {

  /** celld's pid as the workload sees it. */
  static final String CELLD_PID = "P=$(pgrep -x celld); ";

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Inject
  SandboxSettings settings;

  private CommandResult run(SandboxRef ref, String command) {
    return sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, command, 30));
  }

  @Test
  void celldIsItsOwnUserWithOnlyTheSupervisionCapabilitiesAndCommandsHaveNone() {
    SandboxRef ref = sandboxes.shared();
    String status = "| grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' | tr -s '\\t ' ' '";
    CommandResult result = run(ref, CELLD_PID + "cat /proc/$P/status " + status + "; echo ---; cat /proc/self/status " + status);
    String[] parts = result.stdout().split("---\n");
    // Filesystem ids are the workload's: what celld creates is uid 1000's, its access checks are too.
    assertThat(parts[0]).contains("Uid: 999 999 999 1000\n", "Gid: 999 999 999 1000\n", "Groups: \n",
        "CapInh: 0000000000000000\n", "CapPrm: 00000000000000e0\n", "CapEff: 00000000000000e0\n", "NoNewPrivs: 1\n");
    // The bounding set still names KILL, SETGID, SETUID: harmless, no_new_privs keeps them out of reach.
    assertThat(parts[1]).contains("Uid: 1000 1000 1000 1000\n", "Gid: 1000 1000 1000 1000\n", "Groups: \n",
        "CapInh: 0000000000000000\n", "CapPrm: 0000000000000000\n", "CapEff: 0000000000000000\n",
        "CapBnd: 00000000000000e0\n", "CapAmb: 0000000000000000\n", "NoNewPrivs: 1\n");
  }

  @Test
  void theWorkloadCannotSignalPtraceOrReadCelld() {
    SandboxRef ref = sandboxes.shared();
    String pid = run(ref, "pgrep -x celld").stdout().strip();
    CommandResult result = run(ref, CELLD_PID
        + "kill -9 $P 2>/dev/null; echo kill=$?; kill -STOP $P 2>/dev/null; echo stop=$?;"
        + " cat /proc/$P/environ >/dev/null 2>&1; echo environ=$?; head -c1 /proc/$P/mem >/dev/null 2>&1; echo mem=$?;"
        + " python3 -c 'import ctypes, sys; c = ctypes.CDLL(None, use_errno=True);"
        + " print(\"attach\", c.ptrace(16, int(sys.argv[1]), 0, 0), ctypes.get_errno())' $P");
    assertThat(result.stdout()).isEqualTo("kill=1\nstop=1\nenviron=1\nmem=1\nattach -1 1\n");
    // Still the same celld, and not stopped: it answers.
    assertThat(run(ref, "pgrep -x celld").stdout().strip()).isEqualTo(pid);
  }

  @Test
  void filesThroughCelldAreTheWorkloadsWithItsAccessChecks() {
    SandboxRef ref = sandboxes.shared();
    String dir = "identity-" + System.nanoTime();
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, dir + "/made.txt", "by celld", null, true));
    assertThat(run(ref, "stat -c %u:%g " + dir + " " + dir + "/made.txt").stdout()).isEqualTo("1000:1000\n1000:1000\n");

    run(ref, "umask 077; echo mine > " + dir + "/private.txt");
    assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, dir + "/private.txt")).content())
        .isEqualTo("mine\n");
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, dir + "/private.txt", "changed", null, false));
    assertThat(run(ref, "stat -c %a:%u " + dir + "/private.txt; cat " + dir + "/private.txt").stdout()).isEqualTo("600:1000\nchanged");

    // A root-owned directory and file (as a stock image's mount point may hold) stay root's.
    String volume = sandboxes.ensure(ref).volume();
    assertThat(asRootOnTheVolume(volume, "mkdir /v/" + dir + "/rootdir && echo image > /v/" + dir
        + "/rootdir/root.txt && chmod 755 /v/" + dir + "/rootdir && chmod 644 /v/" + dir + "/rootdir/root.txt")).isZero();
    try {
      for (String path : new String[] {dir + "/rootdir/root.txt", dir + "/rootdir/new.txt"}) {
        assertThat(sandboxes.failure(SandboxSubjects.FILES_WRITE, new WriteFile(ref, path, "overwritten", null, false)).code())
            .as("write %s", path).isEqualTo(ErrorCode.INTERNAL);
      }
      assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, dir + "/rootdir/root.txt")).content())
          .isEqualTo("image\n");
    } finally {
      asRootOnTheVolume(volume, "rm -rf /v/" + dir);
    }
  }

  /**
   * What nothing in a sandbox can do: act as root with the engine's default capabilities on its
   * volume, from a network-less container of the test's own (an exec cannot exceed the sandbox's).
   */
  private long asRootOnTheVolume(String volume, String script) {
    String id = docker.createContainerCmd(settings.runtimeImage()).withUser("0:0").withEntrypoint("sh", "-c", script)
        .withLabels(Map.of(TestDocker.TEST_LABEL, "true"))
        .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none")
            .withMounts(List.of(new Mount().withType(MountType.VOLUME).withSource(volume).withTarget("/v"))))
        .exec().getId();
    try {
      docker.startContainerCmd(id).exec();
      return docker.waitContainerCmd(id).start().awaitStatusCode(30, TimeUnit.SECONDS);
    } finally {
      docker.removeContainerCmd(id).withForce(true).exec();
    }
  }
}
