package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * No process survives its supervisor: when celld dies (killed from outside here, since the workload
 * cannot), what the workload started is gone before the sandbox serves again, in a task and a home.
 */
@QuarkusTest
class CelldLossTest {

  /** The escapee renames itself and double-forks, so only a whole-container end finds it. */
  private static final String ESCAPE = "(exec -a escapee sleep 3601 &); sleep 3602";
  private static final String COUNT_ESCAPEES = "pgrep -fc '^escape[e]' || true";

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Test
  void aTasksLeftoversEndWhenCelldIsKilled() throws Exception {
    SandboxRef ref = sandboxes.newTask("celld-loss-owner");
    try {
      String container = sandboxes.ensure(ref).containerId();
      sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "kept.txt", "kept", null, false));
      CompletableFuture<WorkcellException> inFlight = CompletableFuture.supplyAsync(() ->
          sandboxes.failure(SandboxSubjects.EXEC, new RunCommand(ref, ESCAPE, 600)));
      awaitEscapee(ref);

      String started = startedAt(container);
      TestDocker.killCelld(docker, container);
      assertThat(inFlight.get(30, TimeUnit.SECONDS)).as("the command celld ran when it died fails").isNotNull();

      assertThat(runOnceServing(ref, COUNT_ESCAPEES).stdout().strip()).isEqualTo("0");
      assertThat(startedAt(container)).as("the container was restarted").isNotEqualTo(started);
      assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "kept.txt")).content()).isEqualTo("kept");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void aHomesBackgroundProcessesEndWhenCelldIsKilled() throws Exception {
    SandboxRef ref = sandboxes.newHome("celld-loss");
    try {
      String container = sandboxes.ensure(ref).containerId();
      ProcessView process = sandboxes.call(SandboxSubjects.PROCESS_START, new StartProcess(ref, ESCAPE, null, null, null, null));
      assertThat(process.status()).isEqualTo("running");
      awaitEscapee(ref);

      TestDocker.killCelld(docker, container);

      assertThat(runOnceServing(ref, COUNT_ESCAPEES + "; pgrep -fc '^sleep 360[2]' || true").stdout()).isEqualTo("0\n0\n");
    } finally {
      sandboxes.call(SandboxSubjects.STOP, ref);
    }
  }

  private CommandResult run(SandboxRef ref, String command) {
    return sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, command, 30));
  }

  private void awaitEscapee(SandboxRef ref) throws InterruptedException {
    for (int i = 0; i < 100 && !"1".equals(run(ref, COUNT_ESCAPEES).stdout().strip()); i++) {
      Thread.sleep(100);
    }
    assertThat(run(ref, COUNT_ESCAPEES).stdout().strip()).as("the escapee runs").isEqualTo("1");
  }

  private String startedAt(String container) {
    return docker.inspectContainerCmd(container).exec().getState().getStartedAt();
  }

  /** A command once sandbox-service has noticed celld is gone and started the sandbox anew. */
  private CommandResult runOnceServing(SandboxRef ref, String command) throws InterruptedException {
    WorkcellException last = null;
    for (int i = 0; i < 150; i++) {
      try {
        return run(ref, command);
      } catch (WorkcellException e) {
        last = e;
        Thread.sleep(200);
      }
    }
    throw last;
  }
}
