package dev.workcell.task.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.ApprovalApi.ApprovalsState;
import dev.workcell.contracts.task.ApprovalApi.DecideApproval;
import dev.workcell.contracts.task.ApprovalApi.DeleteApprovalRule;
import dev.workcell.contracts.task.ApprovalApi.SetApprovals;
import dev.workcell.contracts.task.ApprovalDecision;
import dev.workcell.contracts.task.ApprovalState;
import dev.workcell.contracts.task.ApprovalView;
import dev.workcell.contracts.task.PolicyView;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.RunnerApi.ApprovalRef;
import dev.workcell.contracts.task.RunnerApi.RequestApproval;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.contracts.task.WorkAdminApi.SavePolicy;
import dev.workcell.task.support.AdminWorkTest;
import dev.workcell.task.support.Sql;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ApprovalsTest extends AdminWorkTest {

  @Inject
  Sql sql;

  TaskCreated created;

  @BeforeEach
  void setUp() {
    created = work.createTask(admin);
  }

  @Test
  void approvalsOffLetTheCallRunAtOnce() {
    ApprovalView view = ask("c0", "run_command", "rm");

    assertThat(view.state()).isEqualTo(ApprovalState.ALLOWED);
    assertThat(view.decision()).isEqualTo(ApprovalDecision.NOT_REQUIRED);
  }

  @Test
  void alwaysAllowForRunCommandCoversThatProgramOnly() {
    toggle(true);
    ApprovalView pending = ask("c1", "run_command", "npm");
    assertThat(pending.state()).isEqualTo(ApprovalState.PENDING);
    assertThat(work.call(TaskSubjects.APPROVALS, new TaskRef(taskId()), admin).pending())
        .extracting(ApprovalView::id).containsExactly(pending.id());

    ApprovalView decided = decide(pending.id(), ApprovalDecision.ALWAYS_ALLOW);

    assertThat(decided.state()).isEqualTo(ApprovalState.ALLOWED);
    assertThat(ask("c2", "run_command", "npm").decision()).isEqualTo(ApprovalDecision.RULE);
    assertThat(ask("c3", "run_command", "curl").state()).isEqualTo(ApprovalState.PENDING);
    ApprovalsState state = work.call(TaskSubjects.APPROVALS, new TaskRef(taskId()), admin);
    assertThat(state.rules()).hasSize(1);
    assertThat(state.rules().get(0).program()).isEqualTo("npm");
    assertThat(work.failure(TaskSubjects.APPROVAL_DECIDE, new DecideApproval(taskId(), pending.id(), ApprovalDecision.DENY), admin))
        .isEqualTo(ErrorCode.CONFLICT);

    ApprovalsState afterDelete = work.call(TaskSubjects.APPROVAL_RULE_DELETE,
        new DeleteApprovalRule(taskId(), state.rules().get(0).id()), admin);
    assertThat(afterDelete.rules()).isEmpty();
    assertThat(ask("c4", "run_command", "npm").state()).isEqualTo(ApprovalState.PENDING);
    assertThat(work.call(TaskSubjects.ADMIN_AUDIT, new ListAudit(taskId(), null, 0), admin).entries())
        .extracting(e -> e.action()).contains("approvals.toggle", "approval.decide", "approval.allowed_by_rule",
            "approval_rule.delete");
  }

  @Test
  void denyIsFinalAndAnUndecidedApprovalExpires() {
    toggle(true);
    ApprovalView denied = decide(ask("d1", "delete_file", null).id(), ApprovalDecision.DENY);
    assertThat(denied.state()).isEqualTo(ApprovalState.DENIED);

    ApprovalView late = ask("d2", "move_file", null);
    sql.update("update approvals set expires_at = now() - interval '1 second' where id = ?1", UUID.fromString(late.id()));

    assertThat(work.call(TaskSubjects.RUNNER_APPROVAL_GET, new ApprovalRef(taskId(), late.id()),
        WorkClient.RUNNER).state()).isEqualTo(ApprovalState.EXPIRED);
    assertThat(work.failure(TaskSubjects.APPROVAL_DECIDE, new DecideApproval(taskId(), late.id(), ApprovalDecision.ALLOW_ONCE), admin))
        .isEqualTo(ErrorCode.CONFLICT);
  }

  @Test
  void aPolicyThatRequiresApprovalsLocksTheToggleOn() {
    Actor policyAdmin = work.admin();
    PolicyView policy = work.call(TaskSubjects.ADMIN_POLICY_SAVE, new SavePolicy(null, "reviewed-" + UUID.randomUUID(),
        null, "1g", "1", 128, null, null, false, false, false, true, null), policyAdmin);
    TaskCreated reviewed = work.call(TaskSubjects.CREATE,
        new CreateTask("t", "hi", ProviderKind.OLLAMA, "ollama", "m", policy.id()), admin);

    assertThat(reviewed.task().networkEnabled()).isFalse();
    assertThat(reviewed.task().approvalsEnabled()).isTrue();
    assertThat(work.failure(TaskSubjects.CREATE, new CreateTask("t", "hi", ProviderKind.OLLAMA, "ollama", "m",
        UUID.randomUUID().toString()), admin)).isEqualTo(ErrorCode.INVALID_REQUEST);
    assertThat(work.failure(TaskSubjects.APPROVALS_TOGGLE, new SetApprovals(reviewed.task().id(), false), admin))
        .isEqualTo(ErrorCode.CONFLICT);
    assertThat(work.failure(TaskSubjects.ADMIN_POLICY_SAVE, new SavePolicy(null, policy.name(), null, null, null, null,
        null, null, true, false, false, false, null), policyAdmin)).isEqualTo(ErrorCode.ALREADY_EXISTS);
    Actor userClaimingAdmin = new Actor(work.account(Actor.Role.USER).accountId(), Actor.Role.ADMIN);
    assertThat(work.failure(TaskSubjects.ADMIN_POLICY_SAVE, new SavePolicy(null, "x", null, null, null, null, null, null,
        true, false, false, false, null), userClaimingAdmin)).isEqualTo(ErrorCode.FORBIDDEN);
  }

  private String taskId() {
    return created.task().id();
  }

  private void toggle(boolean enabled) {
    work.call(TaskSubjects.APPROVALS_TOGGLE, new SetApprovals(taskId(), enabled), admin);
  }

  private ApprovalView ask(String callId, String tool, String program) {
    return work.call(TaskSubjects.RUNNER_APPROVAL_REQUEST,
        new RequestApproval(taskId(), created.run().id(), callId, tool, program, tool + " " + program),
        WorkClient.RUNNER);
  }

  private ApprovalView decide(String approvalId, ApprovalDecision decision) {
    return work.call(TaskSubjects.APPROVAL_DECIDE, new DecideApproval(taskId(), approvalId, decision),
        admin);
  }
}
