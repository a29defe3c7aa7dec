package dev.workcell.task.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.task.ApprovalApi.DecideApproval;
import dev.workcell.contracts.task.ApprovalApi.DeleteApprovalRule;
import dev.workcell.contracts.task.ApprovalApi.SetApprovals;
import dev.workcell.contracts.task.ApprovalDecision;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.GetRun;
import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskApi.UpdateTask;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TicketApi.IssueTicket;
import dev.workcell.contracts.task.WorkAdminApi.ListPolicies;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.Call;
import dev.workcell.task.support.Sql;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway sends the subjects of {@link TaskSubjects#CALLER_CHECKED} without reading the account
 * first, so each of them must refuse a disabled, unknown or re-roled account itself, at once (the
 * row is changed by hand, no cache in between) and before it reads or changes anything.
 */
@QuarkusTest
class CallerCheckTest {

  @Inject
  NatsRequester nats;

  @Inject
  Sql sql;

  WorkClient work;
  Actor user;
  TaskCreated task;
  List<Call<?>> requests;

  @BeforeEach
  void setUp() {
    work = new WorkClient(nats);
    work.call(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess("users"), work.admin());
    user = work.account(Actor.Role.USER);
    task = work.createTask(user);
    work.move(task.task().id(), task.run().id(), "running"); // so cancel and mid-run messages would change something
    String id = task.task().id();
    requests = new ArrayList<>();
    requests.add(Call.of(TaskSubjects.CREATE, new CreateTask(null, "another task", ProviderKind.OLLAMA, "ollama", "qwen3:8b", null)));
    requests.add(Call.of(TaskSubjects.LIST, new ListTasks()));
    requests.add(Call.of(TaskSubjects.GET, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.SANDBOX, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.UPDATE, new UpdateTask(id, "taken over", null, null, null)));
    requests.add(Call.of(TaskSubjects.DELETE, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.RUN_START, new StartRun(id, "start again")));
    requests.add(Call.of(TaskSubjects.RUN_CANCEL, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.RUN_GET, new GetRun(id, task.run().id())));
    requests.add(Call.of(TaskSubjects.MESSAGE_POST, new PostMessage(id, "steer")));
    requests.add(Call.of(TaskSubjects.MESSAGE_PAGE, new PageMessages(id, null, 0)));
    requests.add(Call.of(TaskSubjects.APPROVALS, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.APPROVALS_TOGGLE, new SetApprovals(id, true)));
    requests.add(Call.of(TaskSubjects.APPROVAL_DECIDE,
        new DecideApproval(id, UUID.randomUUID().toString(), ApprovalDecision.ALWAYS_ALLOW)));
    requests.add(Call.of(TaskSubjects.APPROVAL_RULE_DELETE, new DeleteApprovalRule(id, UUID.randomUUID().toString())));
    requests.add(Call.of(TaskSubjects.TICKET_ISSUE, new IssueTicket(id, "terminal")));
    requests.add(Call.of(TaskSubjects.POLICIES, new ListPolicies()));
    requests.add(Call.of(TaskSubjects.ADMIN_TASKS, new ListTasks()));
    assertThat(requests.stream().<Subject<?, ?>>map(Call::subject).toList())
        .as("every caller-checked subject has a request here")
        .containsExactlyInAnyOrderElementsOf(TaskSubjects.CALLER_CHECKED);
  }

  @Test
  void aDisabledAccountIsRefusedByEverySubjectAndNothingChanges() {
    sql.update("update accounts set status = 'disabled' where id = ?1", UUID.fromString(user.accountId()));
    String before = state();

    requests.forEach(call ->
        assertThat(work.failure(call, user)).as(call.toString()).isEqualTo(ErrorCode.ACCOUNT_DISABLED));

    assertThat(state()).isEqualTo(before);
    sql.update("update accounts set status = 'active' where id = ?1", UUID.fromString(user.accountId()));
    assertThat(work.call(TaskSubjects.GET, new TaskRef(task.task().id()), user).task().title())
        .isEqualTo(task.task().title());
  }

  @Test
  void aHeaderRoleThatIsNotTheStoredOneIsRefusedBeforeAnythingHappens() {
    String before = state();
    Actor claimingAdmin = new Actor(user.accountId(), Actor.Role.ADMIN);

    requests.forEach(call -> assertThat(work.failure(call, claimingAdmin)).as(call.toString())
        .isEqualTo(call.subject().equals(TaskSubjects.ADMIN_TASKS) ? ErrorCode.FORBIDDEN : ErrorCode.ROLE_CHANGED));

    // Promoted since the token was issued: the old "user" header is refused the same way, admin subjects included.
    sql.update("update accounts set role = 'admin' where id = ?1", UUID.fromString(user.accountId()));
    requests.forEach(call ->
        assertThat(work.failure(call, user)).as(call.toString()).isEqualTo(ErrorCode.ROLE_CHANGED));

    assertThat(state()).isEqualTo(before);
    assertThat(work.call(TaskSubjects.GET, new TaskRef(task.task().id()), claimingAdmin).task().title())
        .isEqualTo(task.task().title());
  }

  @Test
  void anUnknownAccountIsRefusedByEverySubject() {
    Actor stranger = new Actor(UUID.randomUUID().toString(), Actor.Role.USER);
    String before = state();

    requests.forEach(call ->
        assertThat(work.failure(call, stranger)).as(call.toString()).isEqualTo(ErrorCode.UNAUTHENTICATED));

    assertThat(state()).isEqualTo(before);
  }

  /** Everything a request of the list could change about the user and their task. */
  private String state() {
    return sql.list("""
        select t.title || '|' || t.updated_at || '|' || t.approvals_enabled || '|' || t.decommissioning || '|' || t.state
          || '|' || (select string_agg(r.state, ',' order by r.created_at) from runs r where r.task_id = t.id)
          || '|' || (select count(*) from messages m where m.task_id = t.id)
          || '|' || (select count(*) from ws_tickets w where w.task_id = t.id)
          || '|' || (select count(*) from audit_log a where a.task_id = t.id or a.actor_id = ?2)
          || '|' || (select count(*) from tasks o where o.owner_id = t.owner_id)
        from tasks t where t.id = ?1""", String.class, UUID.fromString(task.task().id()), user.accountId()).get(0);
  }
}
