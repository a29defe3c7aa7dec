package dev.workcell.task.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.ApprovalApi.DecideApproval;
import dev.workcell.contracts.task.ApprovalApi.DeleteApprovalRule;
import dev.workcell.contracts.task.ApprovalApi.SetApprovals;
import dev.workcell.contracts.task.ApprovalDecision;
import dev.workcell.contracts.task.RunnerApi.ClaimRun;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.TaskApi.GetRun;
import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.ListToolActivity;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskList;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskApi.UpdateTask;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskSubjects.KnownTasks;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.contracts.task.TicketApi.IssueTicket;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.Call;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class OwnerIsolationTest {

  @Inject
  NatsRequester nats;

  WorkClient work;

  @BeforeEach
  void setUp() {
    work = new WorkClient(nats);
  }

  @Test
  void anotherOwnersTaskIsNotFoundOnEveryOwnerSubject() {
    Actor owner = work.admin();
    Actor otherAdmin = work.admin();
    TaskCreated created = work.createTask(owner);
    String id = created.task().id();
    String missing = UUID.randomUUID().toString();

    List<Call<?>> requests = new ArrayList<>();
    requests.add(Call.of(TaskSubjects.GET, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.SANDBOX, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.UPDATE, new UpdateTask(id, "mine now", null, null, null)));
    requests.add(Call.of(TaskSubjects.DELETE, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.SEEN, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.RUN_START, new StartRun(id, "hello")));
    requests.add(Call.of(TaskSubjects.RUN_CANCEL, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.RUN_GET, new GetRun(id, created.run().id())));
    requests.add(Call.of(TaskSubjects.MESSAGE_POST, new PostMessage(id, "hello")));
    requests.add(Call.of(TaskSubjects.MESSAGE_PAGE, new PageMessages(id, null, 0)));
    requests.add(Call.of(TaskSubjects.TOOL_ACTIVITY, new ListToolActivity(id, null, null, 0)));
    requests.add(Call.of(TaskSubjects.APPROVALS, new TaskRef(id)));
    requests.add(Call.of(TaskSubjects.APPROVALS_TOGGLE, new SetApprovals(id, true)));
    requests.add(Call.of(TaskSubjects.APPROVAL_DECIDE, new DecideApproval(id, missing, ApprovalDecision.DENY)));
    requests.add(Call.of(TaskSubjects.APPROVAL_RULE_DELETE, new DeleteApprovalRule(id, missing)));
    requests.add(Call.of(TaskSubjects.TICKET_ISSUE, new IssueTicket(id, "terminal")));
    requests.add(Call.of(TaskSubjects.PREVIEW_GET, new TaskRef(id)));

    requests.forEach(call -> assertThat(work.failure(call, otherAdmin))
        .as(call.toString()).isEqualTo(ErrorCode.NOT_FOUND));
    // Nothing changed for the owner.
    TaskView mine = work.call(TaskSubjects.GET, new TaskRef(id), owner).task();
    assertThat(work.call(TaskSubjects.SANDBOX, new TaskRef(id), owner))
        .isEqualTo(new SandboxRef(id, owner.accountId()));
    assertThat(mine.title()).isEqualTo(created.task().title());
    assertThat(mine.state()).isEqualTo(TaskState.PREPARING);
  }

  @Test
  void listsHoldOnlyTheCallersTasksUnlessAnAdminAsksTheAdminSubject() {
    Actor first = work.admin();
    Actor second = work.admin();
    String firstTask = work.createTask(first).task().id();
    String secondTask = work.createTask(second).task().id();

    assertThat(ids(work.call(TaskSubjects.LIST, new ListTasks(), first))).containsExactly(firstTask);
    assertThat(ids(work.call(TaskSubjects.LIST, new ListTasks(), second))).containsExactly(secondTask);
    assertThat(ids(work.call(TaskSubjects.ADMIN_TASKS, new ListTasks(), first)))
        .contains(firstTask, secondTask);
  }

  @Test
  void usersSeeOnlyTheirOwnTasksAndNeverTheAdminView() {
    Actor admin = work.admin();
    work.call(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess("users"), admin);
    Actor user = work.account(Actor.Role.USER);
    Actor otherUser = work.account(Actor.Role.USER);
    String adminTask = work.createTask(admin).task().id();
    String userTask = work.createTask(user).task().id();

    assertThat(work.failure(TaskSubjects.GET, new TaskRef(adminTask), user)).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(work.failure(TaskSubjects.GET, new TaskRef(userTask), otherUser)).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(work.failure(TaskSubjects.GET, new TaskRef(userTask), admin)).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(ids(work.call(TaskSubjects.LIST, new ListTasks(), user))).containsExactly(userTask);
    assertThat(work.failure(TaskSubjects.ADMIN_TASKS, new ListTasks(), user)).isEqualTo(ErrorCode.FORBIDDEN);
    // A role claimed in the header counts for nothing: the database says user.
    Actor claimsAdmin = new Actor(user.accountId(), Actor.Role.ADMIN);
    assertThat(work.failure(TaskSubjects.ADMIN_TASKS, new ListTasks(), claimsAdmin)).isEqualTo(ErrorCode.FORBIDDEN);
  }

  @Test
  void serviceSubjectsRefuseAccountsAndOwnerSubjectsRefuseServices() {
    Actor owner = work.admin();
    TaskCreated created = work.createTask(owner);
    RunRef run = new RunRef(created.task().id(), created.run().id());

    assertThat(work.failure(TaskSubjects.RUNNER_CLAIM, new ClaimRun(run.taskId(), run.runId(), "runner-a"), owner))
        .isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(work.failure(TaskSubjects.RUNNER_PENDING, run, owner)).isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(work.failure(TaskSubjects.KNOWN_TASKS, new KnownTasks(List.of(created.task().id())), owner))
        .isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(work.failure(TaskSubjects.LIST, new ListTasks(), WorkClient.RUNNER)).isEqualTo(ErrorCode.FORBIDDEN);
    // A run id is only good together with its own task.
    String otherTask = work.createTask(owner).task().id();
    assertThat(work.failure(TaskSubjects.RUNNER_CLAIM, new ClaimRun(otherTask, created.run().id(), "runner-a"), WorkClient.RUNNER))
        .isEqualTo(ErrorCode.NOT_FOUND);
  }

  private static List<String> ids(TaskList list) {
    return list.tasks().stream().map(TaskView::id).toList();
  }
}
