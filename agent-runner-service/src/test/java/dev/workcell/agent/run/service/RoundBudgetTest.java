package dev.workcell.agent.run.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
import dev.workcell.agent.run.fixture.SandboxFixture;
import dev.workcell.agent.run.fixture.ScriptedModels;
import dev.workcell.agent.run.fixture.TaskServiceFixture.FixtureRun;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
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

/** WORK_MAX_AGENT_ROUNDS=13 and a model that never stops calling tools. */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
@TestProfile(RoundBudgetTest.ThirteenRounds.class)
class RoundBudgetTest {

  public static class ThirteenRounds implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.agent.max-rounds", "13");
    }
  }

  @Inject
  RunHarness harness;

  @Test
  void spentRoundBudgetEndsWithOneToolFreeHandoffAndNeedsInput() throws Exception {
    String model = "always-tool-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("openai", null, model), Duration.ofSeconds(60));

    List<ScriptedModels.Received> requests = ScriptedModels.received(model);
    assertThat(requests).hasSize(14);
    assertThat(requests.subList(0, 13)).allMatch(ScriptedModels.Received::toolsOffered);
    assertThat(requests.getLast().toolsOffered()).isFalse();
    assertThat(requests.getLast().body().containsKey("tools")).isFalse();
    assertThat(run.state()).isEqualTo("needs_input");
    assertThat(run.appended.getLast().content()).isEqualTo(ScriptedModels.HANDOFF_TEXT);
    List<RunEvent> events = harness.events(run);
    assertThat(events.stream().filter(e -> e.type() == RunEventType.TOOL_CALL)).hasSize(13);
    assertThat(events.getLast().data()).containsEntry("state", "needs_input");
  }

  @Inject
  SandboxFixture sandbox;

  @Test
  void spentToolCallBudgetEndsWithAHandoffBeforeTheBatchThatWouldExceedIt() throws Exception {
    // 13 rounds give max(128, 8 × 13) = 128 calls: six batches of 20 fit, the seventh would not.
    String model = "burst-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("ollama", null, model), Duration.ofSeconds(60));

    List<ScriptedModels.Received> requests = ScriptedModels.received(model);
    assertThat(requests).hasSize(8);
    assertThat(requests.getLast().toolsOffered()).isFalse();
    assertThat(sandbox.received(run.task.id())).hasSize(120);
    assertThat(run.state()).isEqualTo("needs_input");
    assertThat(run.run.reason()).contains("tool-call budget of 128");
  }
}
