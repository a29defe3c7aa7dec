package dev.workcell.sandbox.exec.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Commands through NATS and celld: exit codes, the timeout kill, the output cap, no leftovers. */
@QuarkusTest
class CommandRunnerTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  private CommandResult run(SandboxRef ref, String command, int timeoutSec) {
    return sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, command, timeoutSec));
  }

  @Test
  void reportsExitCodeAndBothStreams() {
    CommandResult result = run(sandboxes.shared(), "echo out; echo err >&2; exit 7", 10);
    assertThat(result.exitCode()).isEqualTo(7);
    assertThat(result.stdout()).isEqualTo("out\n");
    assertThat(result.stderr()).isEqualTo("err\n");
    assertThat(result.truncated()).isFalse();
    assertThat(result.timedOut()).isFalse();
  }

  @Test
  void theTimeoutKillsTheCommand() {
    CommandResult result = run(sandboxes.shared(), "echo started; sleep 30; echo never", 1);
    assertThat(result.timedOut()).isTrue();
    assertThat(result.exitCode()).isEqualTo(128 + 15);
    assertThat(result.stdout()).isEqualTo("started\n");
    assertThat(result.durationMs()).isLessThan(10_000);
  }

  @Test
  void outputBeyondTheCapKeepsHeadAndTail() {
    CommandResult result = run(sandboxes.shared(), "echo HEAD; head -c 200000 /dev/zero | tr '\\0' a; echo; echo TAIL", 30);
    assertThat(result.truncated()).isTrue();
    assertThat(result.stdout()).startsWith("HEAD\n").endsWith("TAIL\n").contains("bytes truncated");
    assertThat(result.stdout().length()).isLessThanOrEqualTo(50_000 + 200);
  }

  @Test
  void theOutputCapIsForBothStreamsTogether() {
    CommandResult result = run(sandboxes.shared(),
        "echo OUT-HEAD; echo ERR-HEAD >&2; head -c 40000 /dev/zero | tr '\\0' o; head -c 40000 /dev/zero | tr '\\0' e >&2;"
            + " echo; echo OUT-TAIL; echo >&2; echo ERR-TAIL >&2", 30);
    assertThat(result.truncated()).isTrue();
    assertThat(result.stdout()).startsWith("OUT-HEAD\n").endsWith("OUT-TAIL\n").contains("truncated");
    assertThat(result.stderr()).startsWith("ERR-HEAD\n").endsWith("ERR-TAIL\n").contains("truncated");
    assertThat(result.stdout().length() + result.stderr().length()).isLessThanOrEqualTo(50_000 + 2 * 64);
  }

  @Test
  void aSetsidDetachedChildDoesNotOutliveItsCommand() {
    SandboxRef ref = sandboxes.shared();
    CommandResult detach = run(ref, "setsid sleep 301 >/dev/null 2>&1 < /dev/null & (nohup sleep 302 >/dev/null 2>&1 &); echo detached", 10);
    assertThat(detach.stdout()).isEqualTo("detached\n");
    CommandResult check = run(ref, "ps -eo args | grep -c '^sleep 30[12]' || true", 10);
    assertThat(check.stdout().strip()).isEqualTo("0");
  }

  @Test
  void aDeadCelldIsRestartedOnTheNextRequest() throws Exception {
    SandboxRef ref = sandboxes.shared();
    String container = sandboxes.ensure(ref).containerId();
    // celld's start time: a restarted container may well give the new celld the same pid.
    String celldStart = "cut -d' ' -f22 /proc/$PPID/stat";
    String before = run(ref, celldStart, 10).stdout().strip();
    CompletableFuture<WorkcellException> inFlight = CompletableFuture.supplyAsync(() ->
        sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, "sleep 5.2424", 10)));
    for (int i = 0; i < 100 && !run(ref, "pgrep -fx 'sleep 5.2424' || true", 10).stdout().contains("\n"); i++) {
      Thread.sleep(50);
    }
    // The workload cannot kill celld (CelldOutOfReachTest); root outside the sandbox can.
    TestDocker.killCelld(docker, container);
    assertThat(inFlight.get(30, TimeUnit.SECONDS).code()).isIn(ErrorCode.SERVICE_UNAVAILABLE, ErrorCode.CANCELLED);
    String after = run(ref, celldStart, 10).stdout().strip();
    assertThat(after).isNotEmpty().isNotEqualTo(before);
  }

  @Test
  void badArgumentsAreRefusedBeforeTheSandbox() {
    SandboxRef ref = sandboxes.shared();
    assertThat(sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, " ", 10)).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, "true", 601)).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, "x".repeat(20_001), 10)).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }
}
