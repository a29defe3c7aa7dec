package dev.workcell.agent.provider.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
import dev.workcell.agent.run.fixture.SandboxFixture;
import dev.workcell.agent.run.fixture.ScriptedModels;
import dev.workcell.agent.run.fixture.TaskServiceFixture.FixtureRun;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.sandbox.WriteFile;
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

/**
 * WORK_PROVIDER_IDLE_TIMEOUT_MS (here 1 s): a provider that stops sending mid-answer fails the round
 * with provider_error and the run ends failed with that reason; a stream whose bytes keep coming,
 * however slowly one long line completes, is no stall.
 */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
@TestProfile(ProviderIdleTimeoutTest.OneSecondIdle.class)
class ProviderIdleTimeoutTest {

  public static class OneSecondIdle implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.agent.provider-idle-timeout", "1s");
    }
  }

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Inject
  RunHarness harness;

  @Inject
  SandboxFixture sandbox;

  @Test
  void aStreamThatGoesSilentMidAnswerFailsTheRunWithProviderError() throws Exception {
    // The fixture starts the answer ("Thinking about it"), then sends nothing and never ends.
    String model = "stall-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("ollama", null, model), PATIENCE);

    assertThat(run.state()).isEqualTo("failed");
    assertThat(run.run.reason()).isEqualTo("no data from the provider for 1 s");
    List<RunEvent> events = harness.events(run);
    assertThat(events).filteredOn(e -> e.type() == RunEventType.ERROR).singleElement()
        .satisfies(e -> assertThat(e.data()).containsEntry("code", "provider_error")
            .containsEntry("message", "no data from the provider for 1 s"));
    assertThat(events.getLast().data()).containsEntry("state", "failed").containsEntry("reason", "no data from the provider for 1 s");
    assertThat(run.appended).as("the cut round is not recorded").isEmpty();
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!ProviderFixtureServers.STALLS_CLOSED.contains(model)) {
      assertThat(System.nanoTime()).as("the runner closed the silent stream").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  @Test
  void aLongToolCallLineWhoseBytesKeepComingIsNoStall() throws Exception {
    // One SSE line written over 2.4 s in 200 ms pieces: slower than the timeout as a line, never silent.
    String model = "trickle-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("openai", null, model), PATIENCE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(sandbox.received(run.task.id())).extracting(SandboxFixture.Received::body)
        .singleElement().isInstanceOfSatisfying(WriteFile.class,
            write -> assertThat(write.content()).isEqualTo(ScriptedModels.TRICKLED));
    assertThat(ScriptedModels.received(model)).hasSize(2);
  }
}
