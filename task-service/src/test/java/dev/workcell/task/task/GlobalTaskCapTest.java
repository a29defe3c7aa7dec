package dev.workcell.task.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** WORK_MAX_TASKS_GLOBAL: the instance's cap counts every account's tasks and answers too_many_tasks. */
@QuarkusTest
@TestProfile(GlobalTaskCapTest.OneSlotLeft.class)
class GlobalTaskCapTest {

  /** The shared test database already holds tasks of earlier tests: the cap leaves exactly one slot. */
  public static class OneSlotLeft implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.task.max-tasks-global", Long.toString(existingTasks() + 1),
          "workcell.task.recover-at-start", "false", "workcell.task.lease-sweep-interval", "0s");
    }

    private static long existingTasks() {
      String url = Optional.ofNullable(System.getenv("WORKCELL_TEST_PG_JDBC_URL"))
          .orElse("jdbc:postgresql://127.0.0.1:15432/workcell_task_test");
      try (var db = DriverManager.getConnection(url, "workcell_task", System.getenv("QUARKUS_DATASOURCE_PASSWORD"));
          ResultSet rows = db.createStatement().executeQuery("select count(*) from tasks")) {
        rows.next();
        return rows.getLong(1);
      } catch (Exception e) {
        return 0; // a fresh database: Flyway creates the table at start
      }
    }
  }

  @Inject
  NatsRequester nats;

  @Test
  void theLastSlotIsTakenThenAnyAccountIsRefusedWithTooManyTasks() {
    WorkClient work = new WorkClient(nats);
    Actor first = work.account(Actor.Role.USER);
    Actor second = work.account(Actor.Role.USER);

    work.createTask(first);

    assertThat(work.failure(TaskSubjects.CREATE, new CreateTask(null, "one more", ProviderKind.OLLAMA, "ollama", "qwen3:8b", null), second))
        .isEqualTo(ErrorCode.TOO_MANY_TASKS);
    assertThat(work.failure(TaskSubjects.CREATE, new CreateTask(null, "and mine", ProviderKind.OLLAMA, "ollama", "qwen3:8b", null), first))
        .isEqualTo(ErrorCode.TOO_MANY_TASKS);
  }
}
