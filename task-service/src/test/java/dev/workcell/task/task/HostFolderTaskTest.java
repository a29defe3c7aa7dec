package dev.workcell.task.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpec;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpecRequest;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.task.support.AdminWorkTest;
import dev.workcell.task.support.SandboxFixture;
import dev.workcell.task.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A task on a host folder (decision 0023): task-service stores the real path sandbox-service answers,
 * shows it in the task and hands it to sandbox-service with the runtime; a refusal makes no task.
 */
@QuarkusTest
class HostFolderTaskTest extends AdminWorkTest {

  private static final Actor SANDBOX = Actor.service(ServiceName.SANDBOX);

  @Inject
  Sql sql;

  private static CreateTask on(String folder) {
    return new CreateTask(null, "work in my folder", ProviderKind.OLLAMA, "ollama", "qwen3:8b", null, folder);
  }

  @Test
  void theCheckedRealPathIsStoredShownAndGivenToTheSandbox() {
    TaskCreated created = work.call(TaskSubjects.CREATE, on("/srv/projects/app"), admin);
    String real = SandboxFixture.REAL_ROOT + "/srv/projects/app";
    assertThat(created.task().workspaceFolder()).isEqualTo(real);

    TaskDetail read = work.call(TaskSubjects.GET, new TaskRef(created.task().id()), admin);
    assertThat(read.task().workspaceFolder()).isEqualTo(real);
    RuntimeSpec spec = work.call(TaskSubjects.RUNTIME_SPEC, new RuntimeSpecRequest(created.task().id()), SANDBOX);
    assertThat(spec.workspaceFolder()).isEqualTo(real);
    assertThat(sql.list("select detail::text from audit_log where task_id = ?1 and action = 'task.create'", String.class,
        UUID.fromString(created.task().id()))).singleElement().asString().contains(real);

    TaskCreated plain = work.createTask(admin);
    assertThat(plain.task().workspaceFolder()).isNull();
    assertThat(work.call(TaskSubjects.RUNTIME_SPEC, new RuntimeSpecRequest(plain.task().id()), SANDBOX).workspaceFolder()).isNull();
  }

  @Test
  void aDemotedOwnersHostFolderTaskGetsNoRuntime() {
    Actor owner = work.account(Actor.Role.ADMIN);
    TaskCreated created = work.call(TaskSubjects.CREATE, on("/srv/projects/app"), owner);
    UUID ownerId = UUID.fromString(owner.accountId());
    sql.update("update accounts set role = 'user' where id = ?1", ownerId);
    try {
      assertThat(work.failure(TaskSubjects.RUNTIME_SPEC, new RuntimeSpecRequest(created.task().id()), SANDBOX))
          .isEqualTo(ErrorCode.FORBIDDEN);
    } finally {
      sql.update("update accounts set role = 'admin' where id = ?1", ownerId);
    }
    assertThat(work.call(TaskSubjects.RUNTIME_SPEC, new RuntimeSpecRequest(created.task().id()), SANDBOX).workspaceFolder())
        .isEqualTo(SandboxFixture.REAL_ROOT + "/srv/projects/app");
  }

  @Test
  void aRefusedFolderMakesNoTask() {
    assertThat(work.failure(TaskSubjects.CREATE, on(SandboxFixture.DENIED_FOLDER + "/x"), admin))
        .isEqualTo(ErrorCode.HOST_FOLDER_DENIED);
    assertThat(work.call(TaskSubjects.LIST, new ListTasks(), admin).tasks()).isEmpty();
  }

  /** The role that counts is the database's: a user claiming admin in the envelope is still a user. */
  @Test
  void aUserIsRefusedEvenWithWorkOpenAndAnAdminClaim() {
    Actor user = work.account(Actor.Role.USER);
    work.call(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess("users"), admin);
    try {
      assertThat(work.failure(TaskSubjects.CREATE, on("/srv/projects/app"), user)).isEqualTo(ErrorCode.FORBIDDEN);
      Actor claimsAdmin = new Actor(user.accountId(), Actor.Role.ADMIN);
      // A claim that is not the stored role is refused before anything is read (the gateway then asks again as a user).
      assertThat(work.failure(TaskSubjects.CREATE, on("/srv/projects/app"), claimsAdmin)).isEqualTo(ErrorCode.ROLE_CHANGED);
      assertThat(sql.list("select id::text from tasks where owner_id = ?1", String.class, UUID.fromString(user.accountId())))
          .isEmpty();
    } finally {
      work.call(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess("admins"), admin);
    }
  }
}
