package dev.workcell.agent.run.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
import dev.workcell.agent.run.fixture.SandboxFixture;
import dev.workcell.agent.run.fixture.ScriptedModels;
import dev.workcell.agent.run.fixture.TaskServiceFixture;
import dev.workcell.agent.run.fixture.TaskServiceFixture.FixtureRun;
import dev.workcell.contracts.preview.PreviewSubjects.IssueLink;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.TaskSubjects;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole runs against fixture providers that speak each real wire format, with task-service and
 * sandbox-service played by fixture responders on the real test NATS; events read back from JetStream.
 */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
class AgentRunTest {

  private static final Duration RUN_DEADLINE = Duration.ofSeconds(30);

  @Inject
  RunHarness harness;

  @Inject
  SandboxFixture sandbox;

  @Inject
  TaskServiceFixture tasks;

  @ParameterizedTest
  @ValueSource(strings = {"openai", "anthropic", "ollama", "gemini"})
  void scriptedRunStreamsEventsInOrderAndCompletes(String kind) throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare(kind, null, model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(run.transitions).containsExactly("running", "completed");
    List<RunEvent> events = harness.events(run);
    List<RunEventType> types = events.stream().map(RunEvent::type).toList();
    assertThat(events.stream().mapToLong(RunEvent::seq)).containsExactlyElementsOf(LongStream.rangeClosed(1, events.size()).boxed().toList());
    assertThat(events.getFirst().type()).isEqualTo(RunEventType.RUN_STATE);
    assertThat(events.getFirst().data()).containsEntry("state", "running");
    assertThat(types).contains(RunEventType.SKILL_LOADED, RunEventType.USAGE);
    int firstCall = types.indexOf(RunEventType.TOOL_CALL);
    int firstResult = types.indexOf(RunEventType.TOOL_RESULT);
    int lastDelta = types.lastIndexOf(RunEventType.ASSISTANT_DELTA);
    assertThat(firstCall).isPositive().isLessThan(firstResult);
    assertThat(lastDelta).isGreaterThan(types.lastIndexOf(RunEventType.TOOL_RESULT));
    assertThat(events.getLast().type()).isEqualTo(RunEventType.DONE);
    assertThat(events.getLast().data()).containsEntry("state", "completed");
    assertThat(events.stream().filter(e -> e.type() == RunEventType.TOOL_CALL).map(e -> e.data().get("name")))
        .containsExactly("write_file", "run_command");
    String streamedText = events.stream().filter(e -> e.type() == RunEventType.ASSISTANT_DELTA).map(e -> (String) e.data().get("text"))
        .reduce("", String::concat);
    assertThat(streamedText).endsWith(ScriptedModels.FINAL_TEXT);

    List<SandboxFixture.Received> calls = sandbox.received(run.task.id());
    assertThat(calls).extracting(SandboxFixture.Received::operation).containsExactly("write", "exec");
    WriteFile write = (WriteFile) calls.get(0).body();
    assertThat(write.path()).isEqualTo("index.html");
    assertThat(write.content()).isEqualTo("<h1>Hello</h1>");
    assertThat(write.sandbox().ownerId()).isEqualTo(run.task.ownerId());
    RunCommand exec = (RunCommand) calls.get(1).body();
    assertThat(exec.command()).isEqualTo("ls");
    assertThat(exec.sandbox().taskId()).isEqualTo(run.task.id());

    assertThat(run.appended).extracting(a -> a.role()).containsExactly(MessageRole.ASSISTANT, MessageRole.TOOL, MessageRole.ASSISTANT,
        MessageRole.TOOL, MessageRole.ASSISTANT);
    assertThat(run.appended.getLast().content()).isEqualTo(ScriptedModels.FINAL_TEXT);
    assertThat(run.activity).extracting(a -> a.status()).containsExactly("running", "ok", "running", "ok");
    // Fixture servers number calls per response (call_0 every round) as some real ones do: the run's ids stay unique.
    assertThat(run.activity.stream().map(a -> a.toolCallId()).distinct()).hasSize(2);
    assertThat(events.stream().filter(e -> e.type() == RunEventType.TOOL_CALL).map(e -> e.data().get("id")).distinct()).hasSize(2);
    assertThat(run.usage).hasSize(3);
    assertThat(ScriptedModels.received(model)).hasSize(3).allMatch(ScriptedModels.Received::toolsOffered);
  }

  @Test
  void startPreviewReturnsTheSignedUrlPreviewProxyIssuedForTheTasksOwner() throws Exception {
    String model = "preview-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("ollama", null, model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(sandbox.received(run.task.id())).extracting(SandboxFixture.Received::operation)
        .containsExactly("preview.start", "preview.link");
    IssueLink asked = (IssueLink) sandbox.received(run.task.id()).get(1).body();
    assertThat(asked.ownerId()).isEqualTo(run.task.ownerId());
    assertThat(asked.origin()).isNull();
    // The model reads the URL in the tool result (the path: no public origin is configured).
    String toolResult = run.appended.get(1).content();
    assertThat(toolResult).contains("\"url\":\"/api/work/previews/" + SandboxFixture.SIGNED + "/\"")
        .contains("\"running\":true").doesNotContain("hostPort");
    assertThat(ScriptedModels.received(model).get(1).body().encode()).contains("/api/work/previews/" + SandboxFixture.SIGNED + "/");
  }

  @Test
  void aRunTalksToTaskServiceOnceToStartAndTwicePerToolCall() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("openai", null, model), RUN_DEADLINE);
    harness.awaitRunnerLetGo(run, RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(run.requestsBeforeFirstModelRequest()).as("one claim before the first model token").containsExactly(CLAIM);
    // Lease renewals and pending-message asks depend on timing; everything else is fixed per round and per call
    // (run_command asks for approval first, which answers at once with approvals off).
    assertThat(run.requests.stream().map(TaskServiceFixture.Request::subject)
        .filter(s -> !s.equals(TaskSubjects.RUNNER_HEARTBEAT.name()) && !s.equals(TaskSubjects.RUNNER_PENDING.name())))
        .containsExactly(CLAIM, ROUND, START, FINISH, ROUND, TaskSubjects.RUNNER_APPROVAL_REQUEST.name(), START, FINISH, ROUND,
            TaskSubjects.RUNNER_TRANSITION.name());
    // What the UI shows of the first call: the assistant message with the call, one Activity record
    // running then ok, and the tool message answering the call.
    String callId = run.appended.getFirst().toolCalls().getFirst().id();
    assertThat(run.appended.getFirst().role()).isEqualTo(MessageRole.ASSISTANT);
    assertThat(run.appended.getFirst().toolCalls()).extracting(c -> c.name()).containsExactly("write_file");
    assertThat(run.activity).filteredOn(a -> a.toolCallId().equals(callId)).extracting(a -> a.status(), a -> a.toolName())
        .containsExactly(tuple("running", "write_file"), tuple("ok", "write_file"));
    assertThat(run.appended.get(1).role()).isEqualTo(MessageRole.TOOL);
    assertThat(run.appended.get(1).toolCallId()).isEqualTo(callId);
    List<RunEvent> events = harness.events(run);
    assertThat(events).filteredOn(e -> e.type() == RunEventType.DONE).hasSize(1);
    assertThat(events).filteredOn(e -> e.type() == RunEventType.RUN_STATE).extracting(e -> e.data().get("state"))
        .containsExactly("running", "completed");
  }

  private static final String CLAIM = TaskSubjects.RUNNER_CLAIM.name();
  private static final String ROUND = TaskSubjects.RUNNER_ROUND.name();
  private static final String START = TaskSubjects.RUNNER_TOOL_START.name();
  private static final String FINISH = TaskSubjects.RUNNER_TOOL_FINISH.name();

  @Test
  void geminiThoughtSignaturesGoBackWithTheirCalls() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    harness.runToEnd(harness.prepare("gemini", null, model), RUN_DEADLINE);
    String second = ScriptedModels.received(model).get(1).body().encode();
    assertThat(second).contains("\"thoughtSignature\":\"sig-write_file\"").contains("functionResponse");
    assertThat(ScriptedModels.received(model).get(1).body().getJsonObject("systemInstruction")).isNotNull();
  }

  @Test
  void providerFailureFailsTheRunWithItsMessageButNeverTheKey() throws Exception {
    FixtureRun run = harness.runToEnd(harness.prepare("openai", null, "overloaded-" + UUID.randomUUID()), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("failed");
    RunEvent error = harness.events(run).stream().filter(e -> e.type() == RunEventType.ERROR).findFirst().orElseThrow();
    assertThat(error.data()).containsEntry("code", "provider_error");
    assertThat((String) error.data().get("message")).contains("529").contains("overloaded").doesNotContain("sk-test-openai");
    assertThat(run.run.reason()).doesNotContain("sk-test-openai");
  }

  @Test
  void ollamaModelWithoutToolsIsRefusedBeforeAnyRound() throws Exception {
    String model = "notools-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("ollama", null, model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("failed");
    assertThat(ScriptedModels.received(model)).isEmpty();
    List<RunEvent> events = harness.events(run);
    RunEvent error = events.stream().filter(e -> e.type() == RunEventType.ERROR).findFirst().orElseThrow();
    assertThat(error.data()).containsEntry("code", "model_lacks_tools");
    assertThat(events.getLast().data()).containsEntry("state", "failed");
  }

  @Test
  void batchWithMalformedArgumentsRunsNoneOfItsCalls() throws Exception {
    String model = "malformed-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("openai", null, model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(sandbox.received(run.task.id())).isEmpty();
    assertThat(run.activity).extracting(a -> a.status()).containsExactly("error", "error");
    assertThat(run.activity.getFirst().output()).contains("none of its calls ran").contains("run_command");
    // The model heard why, as the tool results of both calls, in its next request.
    String secondRequest = ScriptedModels.received(model).get(1).body().encode();
    assertThat(secondRequest).contains("not a complete JSON object");
  }

  @Test
  void messagePostedMidRunReachesTheNextRequest() throws Exception {
    String model = "steer-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("anthropic", null, model);
    AtomicBoolean noticed = new AtomicBoolean();
    sandbox.duringNextTool(run.task.id(), Duration.ZERO, () -> noticed.set(tasks.post(run, "Use blue headings", true)));
    harness.runToEnd(run, RUN_DEADLINE);

    assertThat(noticed).as("the runner noticed the pushed message").isTrue();
    assertThat(run.state()).isEqualTo("completed");
    assertThat(ScriptedModels.received(model)).hasSize(2);
    assertThat(ScriptedModels.received(model).get(0).body().encode()).doesNotContain("Use blue headings");
    assertThat(occurrences(ScriptedModels.received(model).get(1).body().encode(), "Use blue headings")).isEqualTo(1);
  }

  @Test
  void messagePostedWhileTheRunnerAsksForMessagesReachesTheNextRound() throws Exception {
    String model = "bench-3-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("openai", null, model);
    // A pushed message makes round 2 ask (the run's first ask); a second one is posted (and pushed)
    // after that ask read the messages but before its answer arrives.
    sandbox.duringNextTool(run.task.id(), Duration.ZERO, () -> tasks.post(run, "Use red text", true));
    tasks.postDuringPendingCall(run, 1, "Use blue headings");
    harness.runToEnd(run, RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(ScriptedModels.received(model)).hasSize(4);
    String second = ScriptedModels.received(model).get(1).body().encode();
    assertThat(occurrences(second, "Use red text")).isEqualTo(1);
    assertThat(second).doesNotContain("Use blue headings");
    assertThat(occurrences(ScriptedModels.received(model).get(2).body().encode(), "Use blue headings")).isEqualTo(1);
  }

  @Test
  void messageWhosePushWasLostReachesTheModelAfterTheFallbackInterval() throws Exception {
    String model = "steer-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("openai", null, model);
    // No push; the tool is held past the fallback interval (2 s).
    sandbox.duringNextTool(run.task.id(), Duration.ofMillis(2_200), () -> tasks.post(run, "Use blue headings", false));
    harness.runToEnd(run, RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(ScriptedModels.received(model)).hasSize(2);
    assertThat(ScriptedModels.received(model).get(1).body().encode()).contains("Use blue headings");
  }

  @Test
  void roundsWithoutPostedMessagesDoNotAskForThem() throws Exception {
    String model = "bench-20-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("openai", null, model);
    long start = System.nanoTime();
    harness.runToEnd(run, RUN_DEADLINE);
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;

    assertThat(run.state()).isEqualTo("completed");
    assertThat(ScriptedModels.received(model)).hasSize(21);
    // The claim's context holds every message so far; rounds ask only once per fallback interval (2 s) without a push.
    assertThat(run.pendingCalls()).isBetween(0, (int) (elapsedMs / 2_000));
    // Every message of the run is stored, in the order the model produced them.
    assertThat(run.appended.stream().map(a -> a.role()).toList())
        .isEqualTo(IntStream.range(0, 41).mapToObj(i -> i % 2 == 0 ? MessageRole.ASSISTANT : MessageRole.TOOL).toList());
    assertThat(run.appended.getLast().content()).isEqualTo("done");
  }

  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }

  @Test
  void unconfiguredProviderIdFailsWithoutFallingBack() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    FixtureRun run = harness.runToEnd(harness.prepare("openai", "other-openai", model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("failed");
    assertThat(ScriptedModels.received(model)).isEmpty();
    assertThat(harness.events(run)).anySatisfy(e -> assertThat(e.data()).containsEntry("code", "provider_not_found"));
  }

  @Test
  void runCancelledByItsOwnerStopsAtTheNextRound() throws Exception {
    String model = "always-tool-" + UUID.randomUUID();
    FixtureRun run = harness.prepare("gemini", null, model);
    harness.cancelAfterRequests(run, model, 2);
    harness.runToEnd(run, RUN_DEADLINE);

    harness.awaitRunnerLetGo(run, RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("needs_input");
    assertThat(run.transitions).as("the cancel decided the end; the runner reports none").containsExactly("running");
    assertThat(ScriptedModels.received(model).size()).isBetween(2, 3);
    List<RunEvent> events = harness.events(run);
    assertThat(events.getLast().data()).containsEntry("state", "needs_input");
    assertThat(events).filteredOn(e -> e.type() == RunEventType.DONE).hasSize(1);
  }
}
