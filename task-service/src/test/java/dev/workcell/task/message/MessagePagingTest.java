package dev.workcell.task.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.RunnerApi.RecordRound;
import dev.workcell.contracts.task.RunnerApi.ToolFinished;
import dev.workcell.contracts.task.RunnerApi.ToolRecorded;
import dev.workcell.contracts.task.RunnerApi.ToolStarted;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.contracts.task.TaskApi.ListToolActivity;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.ToolActivityPage;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.ToolActivityView;
import dev.workcell.task.support.AdminWorkTest;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MessagePagingTest extends AdminWorkTest {

  @Test
  void pagesHoldAtMost200MessagesAndWalkBackByCursor() {
    TaskCreated created = work.createTask(admin, "message 0");
    append(created, 250, i -> "message " + i);

    MessagePage newest = page(created, null, 500);
    assertThat(newest.messages()).hasSize(200);
    assertThat(newest.messages().get(0).content()).isEqualTo("message 51");
    assertThat(newest.messages().get(199).content()).isEqualTo("message 250");
    assertThat(newest.nextBeforeId()).isEqualTo(newest.messages().get(0).id());

    MessagePage older = page(created, newest.nextBeforeId(), 200);
    assertThat(older.messages()).hasSize(51);
    assertThat(older.messages().get(0).content()).isEqualTo("message 0");
    assertThat(older.nextBeforeId()).isNull();
    assertThat(page(created, null, 0).messages()).hasSize(50);
  }

  @Test
  void pagesStopBeforeOneMillionBytes() {
    TaskCreated created = work.createTask(admin, "start");
    // 15 messages of 90,000 bytes: only 11 (990,000 bytes) fit a page.
    append(created, 15, i -> String.valueOf((char) ('a' + i)).repeat(90_000));

    MessagePage newest = page(created, null, 200);
    assertThat(newest.messages()).hasSize(11);
    assertThat(newest.bytes()).isLessThanOrEqualTo(1_000_000);
    assertThat(newest.messages().stream().mapToLong(m -> m.content().getBytes(StandardCharsets.UTF_8).length).sum())
        .isEqualTo(newest.bytes());
    MessagePage rest = page(created, newest.nextBeforeId(), 200);
    assertThat(rest.messages()).hasSize(5);
    assertThat(rest.messages().get(0).content()).isEqualTo("start");
    assertThat(rest.nextBeforeId()).isNull();
  }

  @Test
  void storedMessagesAndToolOutputAreBounded() {
    TaskCreated created = work.createTask(admin);
    String taskId = created.task().id();
    String runId = created.run().id();

    ToolCall call = new ToolCall("call-1", "run_command", "{\"command\":\"yes\"}");
    MessageView assistant = work.round(taskId, runId, "é".repeat(60_000), List.of(call));
    ToolRecorded recorded = work.tool(taskId, runId, call, "ok", "x".repeat(50_000));
    MessageView tool = recorded.message();
    ToolActivityView activity = recorded.activity();

    assertThat(assistant.truncated()).isTrue();
    assertThat(assistant.content().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(100_000);
    assertThat(assistant.content()).endsWith("bytes]");
    assertThat(tool.truncated()).isTrue();
    assertThat(tool.content()).startsWith("x".repeat(20_000)).contains("[truncated: 30000 more characters");
    assertThat(activity.outputTruncated()).isTrue();
    assertThat(activity.output()).startsWith("x".repeat(20_000)).hasSizeLessThan(20_100);
    ToolActivityPage timeline = work.call(TaskSubjects.TOOL_ACTIVITY, new ListToolActivity(taskId, null, null, 0), admin);
    assertThat(timeline.activity()).extracting(ToolActivityView::toolCallId).containsExactly("call-1");
  }

  @Test
  void aToolCallIsTwoWritesAndShowsAsTheUiReadsIt() {
    TaskCreated created = work.createTask(admin, "list the files");
    String taskId = created.task().id();
    String runId = created.run().id();
    work.move(taskId, runId, "running");
    ToolCall call = new ToolCall("call-ls", "list_files", "{\"path\":\".\"}");

    work.round(taskId, runId, "Let me look.", List.of(call));
    ToolRecorded started = work.call(TaskSubjects.RUNNER_TOOL_START, new ToolStarted(taskId, runId, call), WorkClient.RUNNER);
    assertThat(started.activity().status()).isEqualTo("running");
    assertThat(started.activity().finishedAt()).isNull();
    assertThat(started.message()).as("the tool message comes with the result").isNull();
    assertThat(work.call(TaskSubjects.TOOL_ACTIVITY, new ListToolActivity(taskId, runId, null, 0), admin).activity())
        .extracting(ToolActivityView::status).containsExactly("running");
    ToolRecorded finished = work.call(TaskSubjects.RUNNER_TOOL_FINISH,
        new ToolFinished(taskId, runId, call, "ok", "index.html\nstyle.css", false), WorkClient.RUNNER);
    assertThat(finished.activity().id()).isEqualTo(started.activity().id());

    // The conversation: the admin's message, the assistant's call, the result answering it; nothing else.
    assertThat(page(created, null, 50).messages()).extracting(MessageView::role, MessageView::content, MessageView::toolCallId)
        .containsExactly(tuple(MessageRole.USER, "list the files", null), tuple(MessageRole.ASSISTANT, "Let me look.", null),
            tuple(MessageRole.TOOL, "index.html\nstyle.css", "call-ls"));
    assertThat(page(created, null, 50).messages().get(1).toolCalls()).containsExactly(call);
    // The Activity view: one record of the call, finished with its output.
    ToolActivityPage timeline = work.call(TaskSubjects.TOOL_ACTIVITY, new ListToolActivity(taskId, runId, null, 0), admin);
    assertThat(timeline.activity()).singleElement().satisfies(a -> {
      assertThat(a.toolCallId()).isEqualTo("call-ls");
      assertThat(a.toolName()).isEqualTo("list_files");
      assertThat(a.status()).isEqualTo("ok");
      assertThat(a.output()).isEqualTo("index.html\nstyle.css");
      assertThat(a.finishedAt()).isNotNull();
    });
    // A second end of the same call is refused and stores nothing: no duplicate tool message.
    assertThat(work.failure(TaskSubjects.RUNNER_TOOL_FINISH, new ToolFinished(taskId, runId, call, "error", "again", false),
        WorkClient.RUNNER)).isEqualTo(ErrorCode.CONFLICT);
    assertThat(page(created, null, 50).messages()).hasSize(3);
    // The run's usage arrived with its round.
    RunView ended = work.move(taskId, runId, "completed");
    assertThat(ended.rounds()).isEqualTo(1);
    assertThat(ended.inputTokens()).isEqualTo(10);
    assertThat(ended.toolCalls()).isEqualTo(1);
    // After the end nothing more is recorded.
    assertThat(work.failure(TaskSubjects.RUNNER_TOOL_START, new ToolStarted(taskId, runId, new ToolCall("late", "list_files", "{}")),
        WorkClient.RUNNER)).isEqualTo(ErrorCode.CONFLICT);
  }

  private MessagePage page(TaskCreated created, Long before, int limit) {
    return work.call(TaskSubjects.MESSAGE_PAGE, new PageMessages(created.task().id(), before, limit),
        admin);
  }

  /** Appends {@code count} assistant messages in order (numbered from 1). */
  private void append(TaskCreated created, int count, java.util.function.IntFunction<String> content) {
    List<Integer> numbers = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      numbers.add(i);
    }
    Multi.createFrom().iterable(numbers)
        .onItem().transformToUniAndConcatenate(i -> nats.request(TaskSubjects.RUNNER_ROUND,
            new RecordRound(created.task().id(), created.run().id(), 0, 0, 0, content.apply(i), null), WorkClient.RUNNER))
        .collect().asList().await().atMost(Duration.ofSeconds(120));
  }
}
