package dev.workcell.task.message;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.ClaimRun;
import dev.workcell.contracts.task.RunnerApi.ToolFinished;
import dev.workcell.contracts.task.RunnerApi.ModelContext;
import dev.workcell.contracts.task.RunnerApi.PendingMessages;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.task.support.AdminWorkTest;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ModelContextTest extends AdminWorkTest {

  TaskCreated created;

  @BeforeEach
  void setUp() {
    created = work.createTask(admin, "user 0");
  }

  @Test
  void contextKeepsTheLast30ConversationMessages() {
    for (int i = 1; i <= 39; i++) {
      append("assistant", "assistant " + i, null, null);
    }

    ModelContext context = context();

    assertThat(context.messages()).hasSize(30);
    assertThat(context.messages().get(0).content()).isEqualTo("assistant 10");
    assertThat(context.messages().get(29).content()).isEqualTo("assistant 39");
    assertThat(context.runState()).isEqualTo(RunState.RUNNING);
  }

  @Test
  void contextStaysWithin256KilobytesAndDropsOrphanedToolResults() {
    // Oldest: an assistant call with its result; then five 60 kB messages push the call out of the window.
    append("assistant", "let me look", List.of(new ToolCall("call-old", "list_files", "{}")), null);
    append("tool", "file-a\nfile-b", null, "call-old");
    for (int i = 0; i < 5; i++) {
      append("assistant", "z".repeat(60_000), null, null);
    }
    append("assistant", "checking again", List.of(new ToolCall("call-new", "read_file", "{\"path\":\"a\"}")), null);
    append("tool", "contents of a", null, "call-new");
    append("tool", "a result nobody asked for", null, "call-unknown");

    ModelContext context = context();

    long bytes = context.messages().stream()
        .mapToLong(m -> m.content().getBytes(StandardCharsets.UTF_8).length).sum();
    assertThat(context.bytes()).isLessThanOrEqualTo(256_000);
    assertThat(bytes).isLessThanOrEqualTo(256_000);
    assertThat(context.messages()).extracting(MessageView::content)
        .doesNotContain("file-b", "let me look", "a result nobody asked for")
        .contains("checking again", "contents of a");
    assertThat(context.messages().stream().filter(m -> m.content().length() == 60_000)).hasSize(4);
    assertThat(context.droppedOrphans()).isGreaterThanOrEqualTo(1);
    assertThat(context.messages().get(0).role()).isNotEqualTo(MessageRole.TOOL);
  }

  @Test
  void toolResultsWhoseCallIsInTheWindowStayAndDoNotCountAsConversation() {
    for (int i = 1; i <= 29; i++) {
      append("assistant", "assistant " + i, null, null);
    }
    append("assistant", "calling", List.of(new ToolCall("c1", "run_command", "{\"command\":\"ls\"}")), null);
    append("tool", "listing", null, "c1");

    ModelContext context = context();

    assertThat(context.messages()).hasSize(31);
    assertThat(context.messages().get(29).toolCalls()).extracting(ToolCall::id).containsExactly("c1");
    assertThat(context.messages().get(30).toolCallId()).isEqualTo("c1");
  }

  @Test
  void midRunMessagesAreHandedToTheRunnerOnce() {
    RunRef run = new RunRef(created.task().id(), created.run().id());
    // Posted while the run waits in the queue: the claim's context has it, and marks it delivered.
    work.call(TaskSubjects.MESSAGE_POST, new PostMessage(run.taskId(), "also add a footer"), admin);
    ModelContext context = context();
    assertThat(context.messages()).extracting(MessageView::content).containsExactly("user 0", "also add a footer");
    assertThat(work.call(TaskSubjects.RUNNER_PENDING, run, WorkClient.RUNNER).messages()).isEmpty();

    MessageView second = work.call(TaskSubjects.MESSAGE_POST, new PostMessage(run.taskId(), "and a header"), admin);
    assertThat(second.sentDuringRun()).isTrue();
    assertThat(second.delivered()).isFalse();
    PendingMessages pending = work.call(TaskSubjects.RUNNER_PENDING, run, WorkClient.RUNNER);
    assertThat(pending.messages()).extracting(MessageView::content).containsExactly("and a header");
    assertThat(pending.runState()).isEqualTo(RunState.RUNNING);
    assertThat(work.call(TaskSubjects.RUNNER_PENDING, run, WorkClient.RUNNER).messages()).isEmpty();
  }

  /** The context as the run's claim hands it over (a run is claimed once). */
  private ModelContext context() {
    return work.call(TaskSubjects.RUNNER_CLAIM, new ClaimRun(created.task().id(), created.run().id(), WorkClient.TEST_RUNNER),
        WorkClient.RUNNER).context();
  }

  private void append(String role, String content, List<ToolCall> calls, String toolCallId) {
    String taskId = created.task().id();
    String runId = created.run().id();
    if (MessageRole.fromWire(role) == MessageRole.TOOL) {
      work.call(TaskSubjects.RUNNER_TOOL_FINISH, new ToolFinished(taskId, runId, new ToolCall(toolCallId, "list_files", "{}"), "ok",
          content, false), WorkClient.RUNNER);
    } else {
      work.round(taskId, runId, content, calls == null ? List.of() : calls);
    }
  }
}
