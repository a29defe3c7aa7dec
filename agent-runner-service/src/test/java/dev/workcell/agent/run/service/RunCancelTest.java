package dev.workcell.agent.run.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
import dev.workcell.agent.run.fixture.SandboxFixture;
import dev.workcell.agent.run.fixture.ScriptedModels;
import dev.workcell.agent.run.fixture.TaskServiceFixture;
import dev.workcell.agent.run.fixture.TaskServiceFixture.FixtureRun;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.sandbox.RunCommand;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 6 on the runner's side: a cancel (pushed on the run's control subject) stops the command in
 * flight through EXEC_CANCEL and the model stream at once; a lost lease (the heartbeat's answer)
 * stops the run the same way. Either way the runner records nothing more and leaves the end state,
 * and the last events, to task-service.
 */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
class RunCancelTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Inject
  RunHarness harness;

  @Inject
  SandboxFixture sandbox;

  @Inject
  TaskServiceFixture tasks;

  @Test
  void cancelDuringALongCommandStopsItThroughExecCancelWithinASecond() throws Exception {
    String model = "long-command-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("ollama", null, model);
    harness.start(run);
    RunCommand command = awaitCommand(run);

    long cancelledAt = System.nanoTime();
    tasks.cancel(run);

    List<SandboxFixture.Cancel> cancels = awaitCancels(run, Duration.ofSeconds(1));
    assertThat(cancels).extracting(SandboxFixture.Cancel::execId).containsExactly(command.execId());
    assertThat(cancels.getFirst().atNanos() - cancelledAt).as("EXEC_CANCEL within a second of the cancel")
        .isLessThan(Duration.ofSeconds(1).toNanos());
    harness.awaitRunnerLetGo(run, PATIENCE);
    assertThat(run.state()).isEqualTo("needs_input");
    assertThat(run.transitions).containsExactly("running");
    assertThat(ScriptedModels.received(model)).as("no round after the cancel").hasSize(1);
    assertThat(run.activity).extracting(a -> a.status()).containsExactly("running");
    List<RunEvent> events = harness.events(run);
    assertThat(events).filteredOn(e -> e.type() == RunEventType.DONE).hasSize(1);
    assertThat(events.getLast().data()).containsEntry("state", "needs_input").containsEntry("reason", "cancelled by the owner");
  }

  @Test
  void aCommandTheSandboxCannotStopDoesNotHoldTheRunnerAfterACancel() throws Exception {
    String model = "deaf-command-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("ollama", null, model);
    harness.start(run);
    awaitCommand(run);

    tasks.cancel(run);

    harness.awaitRunnerLetGo(run, Duration.ofSeconds(10)); // the command's own wait would be 60 s and more
    assertThat(sandbox.cancels(run.task.id())).hasSize(1);
    assertThat(run.transitions).containsExactly("running");
    assertThat(ScriptedModels.received(model)).hasSize(1);
  }

  @Test
  void cancelDuringAModelStreamClosesTheStream() throws Exception {
    String model = "stall-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("ollama", null, model);
    harness.start(run);
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (ScriptedModels.received(model).isEmpty()) {
      assertThat(System.nanoTime()).as("the model was asked").isLessThan(deadline);
      Thread.sleep(5);
    }

    tasks.cancel(run);

    harness.awaitRunnerLetGo(run, PATIENCE);
    while (!ProviderFixtureServers.STALLS_CLOSED.contains(model)) {
      assertThat(System.nanoTime()).as("the runner closed the model stream").isLessThan(deadline);
      Thread.sleep(5);
    }
    assertThat(run.transitions).containsExactly("running");
    assertThat(run.appended).as("the cut round is not recorded").isEmpty();
    assertThat(harness.events(run).getLast().data()).containsEntry("state", "needs_input");
  }

  @Test
  void aRunnerWhoseLeaseIsGoneStopsItsCommandAndRecordsNothingMore() throws Exception {
    String model = "long-command-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("ollama", null, model);
    harness.start(run);
    RunCommand command = awaitCommand(run);
    assertThat(run.claims).as("the lease is claimed when the run is taken").hasSize(1);
    String runner = run.claims.getFirst();
    assertThat(run.heartbeats).as("renewed by the runner that claimed it").allMatch(runner::equals);

    tasks.loseLease(run); // no push: only the next heartbeat's answer tells the runner

    assertThat(awaitCancels(run, PATIENCE)).extracting(SandboxFixture.Cancel::execId).containsExactly(command.execId());
    harness.awaitRunnerLetGo(run, PATIENCE);
    assertThat(run.state()).isEqualTo("failed");
    assertThat(run.transitions).containsExactly("running");
    assertThat(ScriptedModels.received(model)).hasSize(1);
    List<RunEvent> events = harness.events(run);
    assertThat(events).filteredOn(e -> e.type() == RunEventType.DONE).hasSize(1);
    assertThat(events.getLast().data()).containsEntry("state", "failed");
  }

  private RunCommand awaitCommand(FixtureRun run) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (true) {
      for (SandboxFixture.Received received : sandbox.received(run.task.id())) {
        if (received.body() instanceof RunCommand command) {
          assertThat(command.execId()).as("every command carries an execId").matches("[A-Za-z0-9_-]{1,64}");
          return command;
        }
      }
      assertThat(System.nanoTime()).as("the command reached the sandbox").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  private List<SandboxFixture.Cancel> awaitCancels(FixtureRun run, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (sandbox.cancels(run.task.id()).isEmpty()) {
      assertThat(System.nanoTime()).as("EXEC_CANCEL reached the sandbox").isLessThan(deadline);
      Thread.sleep(2);
    }
    return sandbox.cancels(run.task.id());
  }
}
