package dev.workcell.task.message;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunnerApi.AppendMessage;
import dev.workcell.contracts.task.RunnerApi.RecordToolActivity;
import dev.workcell.contracts.task.TaskApi.ListToolActivity;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.ToolActivityPage;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.ToolActivityView;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MessagePagingTest {

  @Inject
  NatsRequester nats;

  WorkClient work;
  Actor owner;

  @BeforeEach
  void setUp() {
    work = new WorkClient(nats);
    owner = work.admin();
  }

  @Test
  void pagesHoldAtMost200MessagesAndWalkBackByCursor() {
    TaskCreated created = work.createTask(owner, "message 0");
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
    TaskCreated created = work.createTask(owner, "start");
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
    TaskCreated created = work.createTask(owner);
    String taskId = created.task().id();
    String runId = created.run().id();

    MessageView assistant = work.call(TaskSubjects.RUNNER_APPEND,
        new AppendMessage(taskId, runId, MessageRole.ASSISTANT, "é".repeat(60_000), null, List.of()),
        WorkClient.RUNNER);
    MessageView tool = work.call(TaskSubjects.RUNNER_APPEND,
        new AppendMessage(taskId, runId, MessageRole.TOOL, "x".repeat(50_000), "call-1", null),
        WorkClient.RUNNER);
    ToolActivityView activity = work.call(TaskSubjects.RUNNER_TOOL,
        new RecordToolActivity(taskId, runId, "call-1", "run_command", "{\"command\":\"yes\"}", "ok", "y".repeat(30_000),
            false), WorkClient.RUNNER);

    assertThat(assistant.truncated()).isTrue();
    assertThat(assistant.content().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(100_000);
    assertThat(assistant.content()).endsWith("bytes]");
    assertThat(tool.truncated()).isTrue();
    assertThat(tool.content()).startsWith("x".repeat(20_000)).contains("[truncated: 30000 more characters");
    assertThat(activity.outputTruncated()).isTrue();
    assertThat(activity.output()).startsWith("y".repeat(20_000)).hasSizeLessThan(20_100);
    ToolActivityPage timeline = work.call(TaskSubjects.TOOL_ACTIVITY, new ListToolActivity(taskId, null, null, 0), owner);
    assertThat(timeline.activity()).extracting(ToolActivityView::toolCallId).containsExactly("call-1");
  }

  private MessagePage page(TaskCreated created, Long before, int limit) {
    return work.call(TaskSubjects.MESSAGE_PAGE, new PageMessages(created.task().id(), before, limit),
        owner);
  }

  /** Appends {@code count} assistant messages in order (numbered from 1). */
  private void append(TaskCreated created, int count, java.util.function.IntFunction<String> content) {
    List<Integer> numbers = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      numbers.add(i);
    }
    Multi.createFrom().iterable(numbers)
        .onItem().transformToUniAndConcatenate(i -> nats.request(TaskSubjects.RUNNER_APPEND,
            new AppendMessage(created.task().id(), created.run().id(), MessageRole.ASSISTANT, content.apply(i), null, null), WorkClient.RUNNER))
        .collect().asList().await().atMost(Duration.ofSeconds(120));
  }
}
