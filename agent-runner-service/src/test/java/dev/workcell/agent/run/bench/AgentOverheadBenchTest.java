package dev.workcell.agent.run.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
import dev.workcell.agent.run.fixture.ScriptedModels;
import dev.workcell.agent.run.fixture.TaskServiceFixture.FixtureRun;
import dev.workcell.agent.run.provider.ChatMessage;
import dev.workcell.agent.run.provider.ModelProvider;
import dev.workcell.agent.run.provider.ProviderRegistry;
import dev.workcell.agent.run.provider.ProviderRoute;
import dev.workcell.agent.run.provider.RoundListener;
import dev.workcell.agent.run.provider.RoundRequest;
import dev.workcell.agent.run.tool.WorkspaceTools;
import dev.workcell.agent.run.taskservice.TaskServiceClient;
import dev.workcell.agent.run.config.RunnerSubjects;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.messaging.NatsRequester;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the runner adds per round: a scripted OpenAI-wire provider that answers at once and one
 * read_file per round, against the baseline of the same provider request plus the same sandbox
 * request made directly. Writes a markdown table; no timing is asserted (DESIGN §7).
 */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
@Tag("bench")
class AgentOverheadBenchTest {

  private static final int ROUNDS = 40;
  private static final int REPEATS = 7;

  @Inject
  RunHarness harness;

  @Inject
  ProviderRegistry providers;

  @Inject
  NatsRequester requester;

  @Inject
  RunnerSubjects subjects;

  @Test
  void measureOverheadPerRound() throws Exception {
    for (int i = 0; i < 2; i++) { // warm-up: JIT, connections, consumers
      measureRun();
      measureBaseline();
    }
    List<Double> stack = new ArrayList<>();
    List<Double> baseline = new ArrayList<>();
    for (int i = 0; i < REPEATS; i++) {
      stack.add(measureRun());
      baseline.add(measureBaseline());
    }
    double stackMs = median(stack);
    double baseMs = median(baseline);
    String table = String.format(Locale.ROOT, """
        # agent-overhead results

        Measured %s on %d runs of %d tool rounds + 1 final text round (median per round).
        Provider: fixture OpenAI-compatible SSE server answering instantly; tool: one read_file per round
        answered by a fixture sandbox responder on the real test NATS.

        | what | ms per round |
        |---|---|
        | baseline: one provider round + one sandbox request, called directly | %.3f |
        | runner: full round (pending check, stream, events on JetStream, usage, persisted messages and activity, tool) | %.3f |
        | overhead added by the runner | %.3f |
        | ratio runner / baseline | %.2f |

        Per runner round: the provider stream, 4 NATS request-replies on the round's path (pending messages,
        2 appended messages, the read_file), 3 records sent off it in order on the run's own thread (usage,
        2 tool-activity records; drained before the final transition) and 3 JetStream events (usage, tool_call,
        tool_result; pipelined, acks awaited at the end of the run). The baseline has 1 request-reply, so the
        overhead is about 3 extra bus round trips per round; a real model round takes seconds.
        The host was shared with other builds while this ran (see load average); compare the ratio, not absolutes.
        Load average at the end: %s

        Raw per-round ms — runner: %s; baseline: %s
        """, Instant.now(), REPEATS, ROUNDS, baseMs, stackMs, stackMs - baseMs, stackMs / baseMs, loadAverage(), format(stack), format(baseline));
    Path out = Path.of(System.getProperty("bench.results", "target/agent-overhead-results.md"));
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, table);
    System.out.println(table);
    assertThat(stack).hasSize(REPEATS);
  }

  private double measureRun() throws Exception {
    String model = "bench-" + ROUNDS + "-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("openai", null, model);
    long start = System.nanoTime();
    harness.runToEnd(run, Duration.ofSeconds(120));
    long elapsed = System.nanoTime() - start;
    assertThat(run.state()).isEqualTo("completed");
    assertThat(ScriptedModels.received(model)).hasSize(ROUNDS + 1);
    return elapsed / 1e6 / (ROUNDS + 1);
  }

  private double measureBaseline() {
    String model = "bench-" + ROUNDS + "-" + UUID.randomUUID();
    ModelProvider provider = providers.resolve(new ProviderRoute(ProviderKind.OPENAI, null, model));
    SandboxRef sandbox = new SandboxRef(UUID.randomUUID().toString(), "bench-owner");
    List<ChatMessage> messages = List.of(ChatMessage.user("Build a hello page and check it."));
    long start = System.nanoTime();
    for (int round = 0; round <= ROUNDS; round++) {
      provider.stream(new RoundRequest(model, "system", messages, WorkspaceTools.ALL), RoundListener.NONE);
      requester.request(subjects.filesRead(), new ReadFile(sandbox, "README.md"), FileContent.class, TaskServiceClient.RUNNER)
          .await().atMost(Duration.ofSeconds(5));
    }
    return (System.nanoTime() - start) / 1e6 / (ROUNDS + 1);
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).strip();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  private static String format(List<Double> values) {
    return values.stream().map(v -> String.format(Locale.ROOT, "%.3f", v)).toList().toString();
  }
}
