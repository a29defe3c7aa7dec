package dev.workcell.task.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDeleted;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskSubjects.KnownTasks;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.task.support.AdminWorkTest;
import dev.workcell.task.support.RunEndWatch;
import dev.workcell.task.support.SandboxFixture;
import dev.workcell.task.support.Sql;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class TaskDeletionTest extends AdminWorkTest {

  @Inject
  SandboxFixture sandbox;

  @Inject
  Sql sql;

  @Inject
  RunEndWatch runEnd;

  @Test
  void failedSandboxDeletionKeepsTheTaskAndReturnsTheError() {
    TaskCreated created = work.createTask(admin);
    String taskId = created.task().id();
    sandbox.failFor(taskId);

    assertThat(work.failure(TaskSubjects.DELETE, new TaskRef(taskId), admin)).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);

    TaskDetail kept = work.call(TaskSubjects.GET, new TaskRef(taskId), admin);
    assertThat(kept.task().decommissioning()).isTrue();
    assertThat(kept.task().decommissionError()).contains("service_unavailable").contains("docker engine unreachable");
    assertThat(kept.latestRun().state()).isEqualTo(RunState.CANCELLED);
    assertThat(kept.messages().messages()).isNotEmpty();
    assertThat(work.failure(TaskSubjects.RUN_START, new StartRun(taskId, "more"), admin))
        .isEqualTo(ErrorCode.TASK_DECOMMISSIONING);
    assertThat(known(taskId)).containsExactly(taskId);
    assertThat(auditActions(taskId)).contains("task.delete.start", "task.delete.fail");

    // The operator repairs the runtime; the same delete now goes through.
    sandbox.succeedFor(taskId);
    work.call(TaskSubjects.DELETE, new TaskRef(taskId), admin);
    assertThat(work.failure(TaskSubjects.GET, new TaskRef(taskId), admin)).isEqualTo(ErrorCode.NOT_FOUND);
  }

  @Test
  void successfulDeletionRemovesTheSandboxFirstAndCascadesTheRows() {
    TaskCreated created = work.createTask(admin);
    String taskId = created.task().id();
    String runId = created.run().id();
    ToolCall call = new ToolCall("c1", "list_files", "{}");
    work.round(taskId, runId, "listing", List.of(call));
    work.tool(taskId, runId, call, "ok", "a");

    TaskDeleted deleted = work.call(TaskSubjects.DELETE, new TaskRef(taskId), admin);

    assertThat(deleted.taskId()).isEqualTo(taskId);
    assertThat(sandbox.deleted(taskId)).isTrue();
    assertThat(work.failure(TaskSubjects.GET, new TaskRef(taskId), admin)).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(known(taskId)).isEmpty();
    UUID id = UUID.fromString(taskId);
    for (String table : List.of("runs", "messages", "tool_activity")) {
      assertThat(sql.list("select count(*) from " + table + " where task_id = ?1", Long.class, id)).as(table)
          .containsExactly(0L);
    }
    assertThat(auditActions(taskId)).contains("task.create", "task.delete.start", "task.delete");
  }

  @Test
  void deletingATaskWithAnActiveRunTellsItsRunnerAtOnceAndEndsTheStream() throws Exception {
    TaskCreated created = work.createTask(admin);
    String taskId = created.task().id();
    runEnd.endsAtOnce(work, taskId, created.run().id(), "the task is being deleted",
        () -> work.call(TaskSubjects.DELETE, new TaskRef(taskId), admin));
  }

  @Test
  void perUserTaskCapAnswersTooManyTasksAndDeletionFreesASlot() {
    int created = 0;
    String first = null;
    WorkcellException refused = null;
    while (refused == null && created <= 100) {
      try {
        String id = work.createTask(admin, "task " + created).task().id();
        first = first == null ? id : first;
        created++;
      } catch (WorkcellException e) {
        refused = e;
      }
    }

    assertThat(created).isEqualTo(100);
    assertThat(refused.code()).isEqualTo(ErrorCode.TOO_MANY_TASKS);
    assertThat(refused.code().httpStatus()).isEqualTo(429);
    work.call(TaskSubjects.DELETE, new TaskRef(first), admin);
    assertThat(work.createTask(admin).task().id()).isNotNull();
  }

  private List<String> known(String taskId) {
    return work.call(TaskSubjects.KNOWN_TASKS, new KnownTasks(List.of(taskId, "not-an-id")),
        WorkClient.RUNNER).known();
  }

  private List<String> auditActions(String taskId) {
    return work.call(TaskSubjects.ADMIN_AUDIT, new ListAudit(taskId, null, 0), admin).entries().stream()
        .map(e -> e.action()).toList();
  }
}
