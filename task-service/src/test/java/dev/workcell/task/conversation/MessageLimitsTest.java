package dev.workcell.task.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.UpdateTask;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.task.support.AdminWorkTest;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MessageLimitsTest extends AdminWorkTest {

  @Test
  void messageOf65537CharactersIsRefusedAnd65536Accepted() {
    assertThat(work.failure(TaskSubjects.CREATE, create("a".repeat(65_537)), admin)).isEqualTo(ErrorCode.MESSAGE_TOO_LONG);

    TaskCreated created = work.call(TaskSubjects.CREATE, create("a".repeat(65_536)), admin);

    assertThat(created.message().content()).hasSize(65_536);
    String taskId = created.task().id();
    assertThat(work.call(TaskSubjects.MESSAGE_POST, new PostMessage(taskId, "b".repeat(65_536)),
        admin).content()).hasSize(65_536);
    assertThat(work.failure(TaskSubjects.MESSAGE_POST, new PostMessage(taskId, "b".repeat(65_537)), admin))
        .isEqualTo(ErrorCode.MESSAGE_TOO_LONG);
    work.move(taskId, created.run().id(), "completed");
    assertThat(work.failure(TaskSubjects.RUN_START, new StartRun(taskId, "c".repeat(65_537)), admin))
        .isEqualTo(ErrorCode.MESSAGE_TOO_LONG);
  }

  @Test
  void multiByteCharactersCountAsBytes() {
    // é is 1 character and 2 UTF-8 bytes, € 3 bytes, 😀 2 UTF-16 units and 4 bytes: each refused
    // message below has far fewer than 65,536 characters but 65,537 or more bytes.
    assertThat(work.failure(TaskSubjects.CREATE, create("é".repeat(32_769)), admin)).isEqualTo(ErrorCode.MESSAGE_TOO_LONG);
    assertThat(work.failure(TaskSubjects.CREATE, create("😀".repeat(16_385)), admin)).isEqualTo(ErrorCode.MESSAGE_TOO_LONG);
    assertThat(work.failure(TaskSubjects.CREATE, create("ab" + "€".repeat(21_845)), admin))
        .isEqualTo(ErrorCode.MESSAGE_TOO_LONG);

    assertThat(work.call(TaskSubjects.CREATE, create("é".repeat(32_768)), admin).message().content())
        .hasSize(32_768);
    assertThat(work.call(TaskSubjects.CREATE, create("😀".repeat(16_384)), admin).message().content())
        .isEqualTo("😀".repeat(16_384));
  }

  @Test
  void modelAndProviderIdsHaveTheirOwnCodes() {
    assertThat(work.failure(TaskSubjects.CREATE,
        new CreateTask(null, "hi", ProviderKind.OPENAI, "p", "m".repeat(501), null), admin)).isEqualTo(ErrorCode.MODEL_ID_TOO_LONG);
    assertThat(work.failure(TaskSubjects.CREATE,
        new CreateTask(null, "hi", ProviderKind.OPENAI, "p", "é".repeat(251), null), admin)).isEqualTo(ErrorCode.MODEL_ID_TOO_LONG);
    assertThat(work.failure(TaskSubjects.CREATE,
        new CreateTask(null, "hi", ProviderKind.OPENAI, "p".repeat(201), "m", null), admin)).isEqualTo(ErrorCode.PROVIDER_ID_TOO_LONG);
    assertThat(work.failure(TaskSubjects.CREATE,
        new CreateTask(null, "hi", null, "p", "m", null), admin)).isEqualTo(ErrorCode.INVALID_REQUEST);
    // A kind outside the enum does not decode: the sender's error, never a 500.
    assertThat(work.failureOfJson(TaskSubjects.CREATE,
        Map.of("message", "hi", "providerKind", "bard", "providerId", "p", "model", "m"), admin)).isEqualTo(ErrorCode.MALFORMED_JSON);
    TaskCreated created = work.call(TaskSubjects.CREATE,
        new CreateTask(null, "hi", ProviderKind.OPENAI, "p".repeat(200), "m".repeat(500), null), admin);
    assertThat(created.run().model()).hasSize(500);
    assertThat(work.failure(TaskSubjects.UPDATE,
        new UpdateTask(created.task().id(), null, null, null, "x".repeat(501)), admin)).isEqualTo(ErrorCode.MODEL_ID_TOO_LONG);
  }

  private static CreateTask create(String message) {
    return new CreateTask("limits", message, ProviderKind.OLLAMA, "ollama", "qwen3:8b", null);
  }
}
