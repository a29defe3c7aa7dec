package dev.workcell.sandbox.exec.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CancelExec;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.ExecCancelled;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Commands with a working directory and environment, and cancelled by execId. */
@QuarkusTest
class ExecCancelTest {

  @Inject
  SandboxClient sandboxes;

  @Test
  void cwdAndEnvReachTheCommand() {
    SandboxRef ref = sandboxes.shared();
    sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "mkdir -p cwd-test/inner", 10));
    CommandResult result = sandboxes.call(SandboxSubjects.EXEC,
        new RunCommand(ref, "pwd; echo \"$ONE-$TWO\"", 10, "cwd-test/inner", Map.of("ONE", "1", "TWO", "two words"), null));
    assertThat(result.stdout()).isEqualTo("/workspace/cwd-test/inner\n1-two words\n");
    assertThat(sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, "pwd", 10, "../etc", null, null)).code())
        .isEqualTo(ErrorCode.INVALID_PATH);
    assertThat(sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, "pwd", 10, "cwd-test/missing", null, null)).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, "true", 10, null, Map.of("CELLD_JOB", "x"), null)).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, "true", 10, null, null, "bad id!")).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void cancellingALongCommandAnswersCancelledQuicklyAndLeavesNothing() throws Exception {
    SandboxRef ref = sandboxes.shared();
    String marker = "4242" + System.nanoTime() % 100_000;
    CompletableFuture<WorkcellException> exec = CompletableFuture.supplyAsync(() -> sandboxes.failure(SandboxSubjects.EXEC,
        new RunCommand(ref, "sleep 60." + marker + " & sleep 61." + marker, 120, null, null, "cancel-me")));
    ExecCancelled cancelled = null;
    for (int i = 0; i < 100 && (cancelled == null || !cancelled.cancelled()); i++) {
      Thread.sleep(100);
      cancelled = sandboxes.call(SandboxSubjects.EXEC_CANCEL, new CancelExec(ref, "cancel-me"));
    }
    assertThat(cancelled.cancelled()).isTrue();
    long start = System.nanoTime();
    WorkcellException failure = exec.get(20, TimeUnit.SECONDS);
    assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED);
    assertThat((System.nanoTime() - start) / 1_000_000).as("answered within the kill grace").isLessThan(15_000);
    CommandResult left = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "ps -eo args | grep -c '[s]leep 6.\\." + marker + "' || true", 10));
    assertThat(left.stdout().strip()).isEqualTo("0");
    assertThat(sandboxes.call(SandboxSubjects.EXEC_CANCEL, new CancelExec(ref, "cancel-me")).cancelled()).isFalse();
  }
}
