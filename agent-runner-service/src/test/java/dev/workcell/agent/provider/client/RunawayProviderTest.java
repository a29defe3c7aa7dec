package dev.workcell.agent.provider.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.agent.budget.service.RunnerBudget;
import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
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

/**
 * A provider that never stops (issue 23): an endless answer is cut at the round's character limit,
 * an endless line at the line limit; either way the run fails with provider_error, the runner
 * closes the stream, and the runner's content budget is given back whole.
 */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
@TestProfile(RunawayProviderTest.SmallLimits.class)
class RunawayProviderTest {

  public static class SmallLimits implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.agent.round-max-chars", "300000", "workcell.agent.provider-max-line-chars", "100000");
    }
  }

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Inject
  RunHarness harness;

  @Inject
  RunnerBudget budget;

  @Test
  void anEndlessAnswerIsCutAtTheRoundLimit() throws Exception {
    String model = "runaway-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("ollama", null, model), PATIENCE);

    String reason = "the model's answer passed 300000 characters in one round; the round was cut";
    assertFailedWith(run, reason);
    List<RunEvent> deltas = harness.events(run).stream().filter(e -> e.type() == RunEventType.ASSISTANT_DELTA).toList();
    assertThat(deltas).as("the answer streamed live until the cut").isNotEmpty();
    assertThat(deltas).allSatisfy(e -> assertThat(((String) e.data().get("text")).length())
        .as("one event stays small however fast the model").isLessThanOrEqualTo(16 * 1024 + 4096));
    assertClosedAndGivenBack(model);
  }

  @Test
  void anEndlessLineIsCutAtTheLineLimit() throws Exception {
    String model = "longline-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("openai", null, model), PATIENCE);

    assertFailedWith(run, "the provider sent a line longer than 100000 characters");
    assertClosedAndGivenBack(model);
  }

  private void assertFailedWith(FixtureRun run, String reason) throws Exception {
    assertThat(run.state()).isEqualTo("failed");
    assertThat(run.run.reason()).isEqualTo(reason);
    assertThat(harness.events(run)).filteredOn(e -> e.type() == RunEventType.ERROR).singleElement()
        .satisfies(e -> assertThat(e.data()).containsEntry("code", "provider_error").containsEntry("message", reason));
    assertThat(run.appended).as("the cut round is not recorded").isEmpty();
  }

  private void assertClosedAndGivenBack(String model) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!ProviderFixtureServers.RUNAWAYS_CLOSED.contains(model)) {
      assertThat(System.nanoTime()).as("the runner closed the endless stream").isLessThan(deadline);
      Thread.sleep(5);
    }
    assertThat(budget.budget().held()).as("the round's room is given back").isZero();
  }
}
