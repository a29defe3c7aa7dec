package dev.workcell.task.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.account.GetAccount;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.AccessChanged;
import dev.workcell.contracts.task.WorkAdminApi.AccountDeleted;
import dev.workcell.contracts.task.WorkAdminApi.DeleteAccount;
import dev.workcell.contracts.task.WorkAdminApi.GetAccess;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.contracts.task.WorkAdminApi.RoleChanged;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.contracts.task.WorkAdminApi.SetRole;
import dev.workcell.contracts.task.WorkAdminApi.SetStatus;
import dev.workcell.contracts.task.WorkAdminApi.StatusChanged;
import java.util.List;
import java.util.Map;
import dev.workcell.task.support.AdminWorkTest;
import dev.workcell.task.support.RunEndWatch;
import dev.workcell.task.support.SandboxFixture;
import dev.workcell.task.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

@QuarkusTest
class AccessAdministrationTest extends AdminWorkTest {

  @Inject
  SandboxFixture sandbox;

  @Inject
  Sql sql;

  @Inject
  RunEndWatch runEnd;

  @Test
  void closingWorkStoresTheRevocationThenPausesUsersTasks() {
    setMode("users");
    Actor user = work.account(Actor.Role.USER);
    TaskCreated running = work.createTask(user);
    work.move(running.task().id(), running.run().id(), "running");
    String adminTask = work.createTask(admin).task().id();

    AccessChanged closed = setMode("admins");

    assertThat(closed.pausedTasks()).isGreaterThanOrEqualTo(1);
    assertThat(closed.cancelledRuns()).isGreaterThanOrEqualTo(1);
    assertThat(sandbox.stopped(running.task().id())).isTrue();
    assertThat(sandbox.stopped(adminTask)).isFalse();
    assertThat(work.failure(TaskSubjects.LIST, new ListTasks(), user)).isEqualTo(ErrorCode.WORK_ACCESS_DENIED);
    assertThat(work.call(TaskSubjects.ACCESS_GET, new GetAccess(), user).mode()).isEqualTo("admins");
    setMode("users");
    TaskDetail paused = work.call(TaskSubjects.GET, new TaskRef(running.task().id()), user);
    assertThat(paused.latestRun().state()).isEqualTo(RunState.CANCELLED);
    assertThat(paused.latestRun().reason()).isEqualTo("Work access was revoked");
  }

  @Test
  void aFailedStopStillLeavesTheRevocationInPlace() {
    setMode("users");
    Actor user = work.account(Actor.Role.USER);
    String taskId = work.createTask(user).task().id();
    sandbox.failFor(taskId);
    try {
      assertThat(work.failure(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess("admins"), admin))
          .isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
      assertThat(work.call(TaskSubjects.ACCESS_GET, new GetAccess(), admin).mode()).isEqualTo("admins");
      assertThat(work.failure(TaskSubjects.LIST, new ListTasks(), user)).isEqualTo(ErrorCode.WORK_ACCESS_DENIED);
    } finally {
      sandbox.succeedFor(taskId);
    }
  }

  @Test
  void demotedAdminLosesAccessAndTheirRunsAreCancelled() {
    setMode("admins");
    Actor demoted = work.admin();
    TaskCreated created = work.createTask(demoted);
    // Only an account role: the service role is refused, and a name outside the wire enum (the Java
    // constant name included) does not even decode.
    assertThat(work.failure(TaskSubjects.ADMIN_ROLE_SET, new SetRole(demoted.accountId(), RoleName.SERVICE), admin))
        .isEqualTo(ErrorCode.INVALID_REQUEST);
    assertThat(work.failure(TaskSubjects.ADMIN_ROLE_SET, new SetRole(demoted.accountId(), null), admin))
        .isEqualTo(ErrorCode.INVALID_REQUEST);
    for (String role : new String[] {"USER", "root", ""}) {
      assertThat(work.failureOfJson(TaskSubjects.ADMIN_ROLE_SET, Map.of("accountId", demoted.accountId(), "role", role), admin))
          .as(role).isEqualTo(ErrorCode.MALFORMED_JSON);
    }

    RoleChanged changed = work.call(TaskSubjects.ADMIN_ROLE_SET, new SetRole(demoted.accountId(), RoleName.USER), admin);

    assertThat(changed.account().role()).isEqualTo(Actor.Role.USER);
    assertThat(changed.cancelledRuns()).isEqualTo(1);
    assertThat(sandbox.stopped(created.task().id())).isTrue();
    // The old header still says admin; the database decides.
    assertThat(work.failure(TaskSubjects.LIST, new ListTasks(), demoted)).isEqualTo(ErrorCode.WORK_ACCESS_DENIED);
    assertThat(auditActions()).contains("account.role");
  }

  @Test
  void aRevokedRunsRunnerIsToldAtOnceAndItsStreamEnds() throws Exception {
    setMode("admins");
    Actor demoted = work.admin();
    endsRunAtOnce(demoted, "Work access was revoked",
        () -> work.call(TaskSubjects.ADMIN_ROLE_SET, new SetRole(demoted.accountId(), RoleName.USER), admin));
  }

  @Test
  void aDeletedUsersRunnerIsToldAtOnceAndItsStreamEnds() throws Exception {
    Actor doomed = work.admin();
    endsRunAtOnce(doomed, "the task is being deleted",
        () -> work.call(TaskSubjects.ADMIN_ACCOUNT_DELETE, new DeleteAccount(doomed.accountId()), admin));
  }

  private void endsRunAtOnce(Actor admin, String reason, Runnable action) throws Exception {
    TaskCreated created = work.createTask(admin);
    runEnd.endsAtOnce(work, created.task().id(), created.run().id(), reason, action);
  }

  @Test
  void aDisabledAccountIsRefusedAtOnceAndItsRunsAreCancelled() {
    Actor disabled = work.admin();
    TaskCreated created = work.createTask(disabled);

    StatusChanged changed = work.call(TaskSubjects.ADMIN_STATUS_SET, new SetStatus(disabled.accountId(), "disabled"), admin);

    assertThat(changed.account().status()).isEqualTo("disabled");
    assertThat(changed.cancelledRuns()).isEqualTo(1);
    assertThat(sandbox.stopped(created.task().id())).isTrue();
    assertThat(work.failure(TaskSubjects.LIST, new ListTasks(), disabled)).isEqualTo(ErrorCode.ACCOUNT_DISABLED);
    assertThat(work.failure(TaskSubjects.ADMIN_STATUS_SET, new SetStatus(admin.accountId(), "disabled"), admin))
        .isEqualTo(ErrorCode.CONFLICT);
    assertThat(work.failure(TaskSubjects.ADMIN_STATUS_SET, new SetStatus(disabled.accountId(), "active"), disabled))
        .isIn(ErrorCode.ACCOUNT_DISABLED, ErrorCode.FORBIDDEN);
    assertThat(auditActions()).contains("account.status");

    work.call(TaskSubjects.ADMIN_STATUS_SET, new SetStatus(disabled.accountId(), "active"), admin);
    assertThat(work.call(TaskSubjects.LIST, new ListTasks(), disabled).tasks()).isNotEmpty();
  }

  @Test
  void deletingAUserRemovesTheirTasksFirstAndKeepsTheUserWhenThatFails() {
    Actor doomed = work.admin();
    String first = work.createTask(doomed).task().id();
    String second = work.createTask(doomed).task().id();
    sandbox.failFor(second);

    assertThat(work.failure(TaskSubjects.ADMIN_ACCOUNT_DELETE, new DeleteAccount(doomed.accountId()), admin))
        .isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
    assertThat(work.call(Subjects.ACCOUNT_GET, new GetAccount(doomed.accountId()), admin).id())
        .isEqualTo(doomed.accountId());
    assertThat(work.call(TaskSubjects.LIST, new ListTasks(), doomed).tasks()).isNotEmpty();

    sandbox.succeedFor(second);
    AccountDeleted deleted = work.call(TaskSubjects.ADMIN_ACCOUNT_DELETE, new DeleteAccount(doomed.accountId()), admin);

    assertThat(deleted.deletedTasks()).isGreaterThanOrEqualTo(1);
    assertThat(sandbox.deleted(first)).isTrue();
    assertThat(sandbox.deleted(second)).isTrue();
    assertThat(work.failure(Subjects.ACCOUNT_GET, new GetAccount(doomed.accountId()), admin)).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(auditActions()).contains("account.delete");
  }

  @Test
  void onlyAdminsChangeAccessAndTheAuditLogIsAppendOnly() {
    Actor user = work.account(Actor.Role.USER);
    assertThat(work.failure(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess("users"), user)).isEqualTo(ErrorCode.FORBIDDEN);
    setMode("users");

    assertThatThrownBy(() -> sql.update("update audit_log set action = 'rewritten'")).hasStackTraceContaining("append-only");
    assertThatThrownBy(() -> sql.update("delete from audit_log")).hasStackTraceContaining("append-only");
    assertThatThrownBy(() -> sql.update("truncate audit_log")).hasStackTraceContaining("append-only");
    assertThat(auditActions()).contains("access.mode");
  }

  private AccessChanged setMode(String mode) {
    return work.call(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess(mode), admin);
  }

  private java.util.List<String> auditActions() {
    return work.call(TaskSubjects.ADMIN_AUDIT, new ListAudit(null, null, 200), admin).entries().stream()
        .map(e -> e.action()).toList();
  }
}
