package dev.workcell.agent.run.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
import dev.workcell.agent.run.fixture.SandboxFixture;
import dev.workcell.agent.run.fixture.ScriptedModels;
import dev.workcell.agent.run.fixture.TaskServiceFixture;
import dev.workcell.agent.run.fixture.TaskServiceFixture.FixtureRun;
import dev.workcell.agent.run.fixture.TaskServiceFixture.Review;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Auto Review: run_command waits for the owner's decision (write_file never does). */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
class ApprovalGateTest {

  private static final Duration RUN_DEADLINE = Duration.ofSeconds(30);

  @Inject
  RunHarness harness;

  @Inject
  TaskServiceFixture tasks;

  @Inject
  SandboxFixture sandbox;

  @Test
  void approvedCommandRunsAfterTheWaitAndIsScopedToItsProgram() throws Exception {
    FixtureRun run = runReviewed("ollama", "scripted-" + UUID.randomUUID(), Review.ALLOW_AFTER_WAIT);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(run.approvalRequests).singleElement().satisfies(r -> {
      assertThat(r.toolName()).isEqualTo("run_command");
      assertThat(r.program()).isEqualTo("ls");
    });
    assertThat(sandbox.received(run.task.id())).extracting(SandboxFixture.Received::operation).containsExactly("write", "exec");
    assertThat(harness.events(run)).anySatisfy(e -> assertThat(e.data()).containsEntry("awaiting", "approval"));
  }

  @Test
  void deniedCommandDoesNotRunAndTheModelIsTold() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    FixtureRun run = runReviewed("openai", model, Review.DENY);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(sandbox.received(run.task.id())).extracting(SandboxFixture.Received::operation).containsExactly("write");
    assertThat(run.activity).extracting(a -> a.status()).containsExactly("running", "ok", "denied");
    assertThat(ScriptedModels.received(model).get(2).body().encode()).contains("The owner denied this action");
  }

  @Test
  void undecidedApprovalEndsTheRunNeedsInputAfterAHandoff() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    FixtureRun run = runReviewed("anthropic", model, Review.EXPIRE);

    assertThat(run.state()).isEqualTo("needs_input");
    assertThat(sandbox.received(run.task.id())).extracting(SandboxFixture.Received::operation).containsExactly("write");
    assertThat(ScriptedModels.received(model)).hasSize(3);
    assertThat(ScriptedModels.received(model).getLast().toolsOffered()).isFalse();
    assertThat(run.appended.getLast().content()).isEqualTo(ScriptedModels.HANDOFF_TEXT);
  }

  /** A run of {@code model} whose approval requests the task-service fixture answers with {@code review}, run to its end. */
  private FixtureRun runReviewed(String kind, String model, Review review) throws InterruptedException {
    FixtureRun run = harness.prepare(kind, null, model);
    tasks.review(run, review);
    return harness.runToEnd(run, RUN_DEADLINE);
  }
}
