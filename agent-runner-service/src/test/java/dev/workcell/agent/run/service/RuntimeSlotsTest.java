package dev.workcell.agent.run.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
import dev.workcell.agent.run.fixture.SandboxFixture;
import dev.workcell.agent.run.fixture.ScriptedModels;
import dev.workcell.agent.run.fixture.TaskServiceFixture.FixtureRun;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.sandbox.RunCommand;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A run holds its task's sandbox slot from before its first round to its end; without one it never reaches the model. */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
@TestProfile(RuntimeSlotsTest.ShortLeaseWait.class)
class RuntimeSlotsTest {

  public static class ShortLeaseWait implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.agent.run-lease-wait", "1500ms");
    }
  }

  @Inject
  RunHarness harness;

  @Inject
  SandboxFixture sandbox;

  @Test
  void aRunHoldsItsSlotFromBeforeItsFirstRoundToItsEnd() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("openai", null, model), Duration.ofSeconds(30));

    assertThat(run.state()).isEqualTo("completed");
    assertThat(sandbox.slotRequests(run.task.id())).first().isEqualTo("hold " + run.run.id() + " wait=0");
    harness.awaitRunnerLetGo(run, Duration.ofSeconds(5));
    assertThat(sandbox.slotRequests(run.task.id())).last().isEqualTo("release " + run.run.id());
  }

  @Test
  void aRunThatGetsNoSlotWithinTheLeaseWaitEndsNeedsInputWithoutAskingTheModel() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    FixtureRun prepared = harness.prepare("openai", null, model);
    sandbox.refuseSlots(prepared.task.id(), "all 2 sandbox slots of this instance are in use; wait for one to stop");
    FixtureRun run = harness.runToEnd(prepared, Duration.ofSeconds(30));

    assertThat(run.state()).isEqualTo("needs_input");
    assertThat(run.run.reason()).startsWith("no sandbox slot for this run: ").contains("all 2 sandbox slots");
    assertThat(ScriptedModels.received(model)).as("no round was spent on the cap").isEmpty();
    assertThat(sandbox.received(run.task.id())).as("no tool ran").isEmpty();
    assertThat(sandbox.slotRequests(run.task.id())).startsWith("hold " + run.run.id() + " wait=0", "hold " + run.run.id() + " wait=1500");
    List<RunEvent> events = harness.events(run);
    assertThat(events).anySatisfy(e -> assertThat(e.data()).containsEntry("awaiting", "runtime"));
    assertThat(events).noneMatch(e -> e.type() == RunEventType.TOOL_RESULT);
    assertThat(events.getLast().data()).containsEntry("state", "needs_input");
  }

  @Test
  void aModelsCommandWithoutATimeoutLeavesItToTheDeploymentsDefault() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("openai", null, model), Duration.ofSeconds(30));

    RunCommand exec = (RunCommand) sandbox.received(run.task.id()).stream().filter(r -> r.operation().equals("exec")).findFirst()
        .orElseThrow().body();
    assertThat(exec.timeoutSec()).as("sandbox-service applies WORK_COMMAND_TIMEOUT_MS").isNull();
  }
}
