package dev.workcell.sandbox.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Workcell's seccomp profile: io_uring is refused inside a sandbox, everything else still works, drift recreates. */
@QuarkusTest
class SeccompProfileTest {

  /** x86-64 numbers; the machines Workcell runs on. */
  private static final String IO_URING_SETUP = "425";
  private static final String IO_URING_REGISTER = "427";

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Test
  void theProfileIsTheEnginesDefaultWithoutIoUring() {
    assertThat(SeccompProfile.SECURITY_OPT).startsWith("seccomp={\"defaultAction\":\"SCMP_ACT_ERRNO\"")
        .contains("\"openat2\"", "\"clone3\"", "\"ptrace\"").doesNotContain("io_uring");
  }

  @Test
  void ioUringFailsInsideASandboxWhileOrdinaryWorkRuns() {
    SandboxRef ref = sandboxes.shared();
    CommandResult result = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, """
        python3 -c '
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        params = ctypes.create_string_buffer(120)
        for number in (%s, %s):
            r = libc.syscall(number, 8, params)
            print(number, r, ctypes.get_errno())
        ' && echo hi > /tmp/x && cat /tmp/x && git --version >/dev/null && echo ok
        """.formatted(IO_URING_SETUP, IO_URING_REGISTER), 30));
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    // EPERM (1): the profile's default action; ENOSYS (38) would mean a kernel without io_uring.
    assertThat(result.stdout()).contains(IO_URING_SETUP + " -1 1\n", IO_URING_REGISTER + " -1 1\n", "hi\nok\n");
  }

  @Test
  void aSandboxWithoutTheProfileIsRecreatedWithIt() {
    SandboxRef ref = sandboxes.newTask("seccomp-owner");
    try {
      String first = sandboxes.ensure(ref).containerId();
      InspectContainerResponse inspect = docker.inspectContainerCmd(first).exec();
      docker.removeContainerCmd(first).withForce(true).exec();
      // Everything as sandbox-service made it, but the engine's default seccomp profile instead of Workcell's.
      String loosened = docker.createContainerCmd(inspect.getConfig().getImage())
          .withName(inspect.getName().substring(1)).withLabels(inspect.getConfig().getLabels())
          .withUser("1000:1000").withWorkingDir(inspect.getConfig().getWorkingDir()).withEntrypoint("sleep", "infinity")
          .withHostConfig(inspect.getHostConfig().withSecurityOpts(List.of("no-new-privileges"))).exec().getId();
      String reused = sandboxes.ensure(ref).containerId();
      assertThat(reused).isNotEqualTo(loosened);
      assertThat(docker.inspectContainerCmd(reused).exec().getHostConfig().getSecurityOpts())
          .containsExactly("no-new-privileges", SeccompProfile.SECURITY_OPT);
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }
}
