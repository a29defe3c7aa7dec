package dev.workcell.contracts.task;

import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.subject.NatsUser;
import dev.workcell.contracts.subject.Push;
import dev.workcell.contracts.subject.Subject;

import dev.workcell.contracts.task.ApprovalApi.ApprovalsState;
import dev.workcell.contracts.task.ApprovalApi.DecideApproval;
import dev.workcell.contracts.task.ApprovalApi.DeleteApprovalRule;
import dev.workcell.contracts.task.ApprovalApi.SetApprovals;
import dev.workcell.contracts.task.PreviewApi.SetPreview;
import dev.workcell.contracts.task.RunnerApi.ApprovalRef;
import dev.workcell.contracts.task.RunnerApi.ClaimRun;
import dev.workcell.contracts.task.RunnerApi.ClaimedRun;
import dev.workcell.contracts.task.RunnerApi.RecordRound;
import dev.workcell.contracts.task.RunnerApi.RoundRecorded;
import dev.workcell.contracts.task.RunnerApi.ToolFinished;
import dev.workcell.contracts.task.RunnerApi.ToolRecorded;
import dev.workcell.contracts.task.RunnerApi.ToolStarted;
import dev.workcell.contracts.task.RunnerApi.PendingMessages;
import dev.workcell.contracts.task.RunnerApi.RequestApproval;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.RunnerApi.RunTransition;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpec;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpecRequest;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.GetRun;
import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.ListToolActivity;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.TaskApi.RunCancelled;
import dev.workcell.contracts.task.TaskApi.RunDetail;
import dev.workcell.contracts.task.TaskApi.RunStarted;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDeleted;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskList;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskApi.ToolActivityPage;
import dev.workcell.contracts.task.TaskApi.UpdateTask;
import dev.workcell.contracts.task.TicketApi.ConsumeTicket;
import dev.workcell.contracts.task.TicketApi.IssueTicket;
import dev.workcell.contracts.task.TicketApi.TicketGrant;
import dev.workcell.contracts.task.TicketApi.TicketIssued;
import dev.workcell.contracts.task.WorkAdminApi.AccessChanged;
import dev.workcell.contracts.task.WorkAdminApi.AccessMode;
import dev.workcell.contracts.task.WorkAdminApi.AccountDeleted;
import dev.workcell.contracts.task.WorkAdminApi.AccountList;
import dev.workcell.contracts.task.WorkAdminApi.AuditPage;
import dev.workcell.contracts.task.WorkAdminApi.DeleteAccount;
import dev.workcell.contracts.task.WorkAdminApi.GetAccess;
import dev.workcell.contracts.task.WorkAdminApi.ListAccounts;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.contracts.task.WorkAdminApi.ListPolicies;
import dev.workcell.contracts.task.WorkAdminApi.PolicyDeleted;
import dev.workcell.contracts.task.WorkAdminApi.PolicyList;
import dev.workcell.contracts.task.WorkAdminApi.PolicyRef;
import dev.workcell.contracts.task.WorkAdminApi.RoleChanged;
import dev.workcell.contracts.task.WorkAdminApi.SavePolicy;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.contracts.task.WorkAdminApi.SetRole;
import dev.workcell.contracts.task.WorkAdminApi.SetStatus;
import dev.workcell.contracts.task.WorkAdminApi.StatusChanged;

/**
 * task-service subjects about Work (request/reply, queue group "task"). Each constant names its
 * request and reply records and who may call it:
 * <ul>
 *   <li><b>owner</b>: an admin or user account with Work access (read fresh from the database);
 *       a task of another account is {@code not_found}, for admins too.</li>
 *   <li><b>admin</b>: an active admin account (role read from the database, not the header).</li>
 *   <li><b>service</b>: a suite service actor (agent-runner, sandbox-service, terminal-service).</li>
 * </ul>
 */
public final class TaskSubjects {

  private static final String P = "workcell.task.";

  // --- tasks (owner) ---

  /** {@link CreateTask} → {@link TaskCreated}; owner. Answers too_many_tasks (429) over the caps. */
  public static final Subject<CreateTask, TaskCreated> CREATE =
      Subject.of(P + "tasks.create", CreateTask.class, TaskCreated.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ListTasks} → {@link TaskList}; owner (own tasks only). */
  public static final Subject<ListTasks, TaskList> LIST =
      Subject.of(P + "tasks.list", ListTasks.class, TaskList.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link TaskRef} → {@link TaskDetail}; owner (terminal-service acts as the ticket's account: is a run active?). */
  public static final Subject<TaskRef, TaskDetail> GET =
      Subject.of(P + "tasks.get", TaskRef.class, TaskDetail.class, ServiceName.TASK, NatsUser.GATEWAY, NatsUser.TERMINAL);
  /**
   * {@link TaskRef} → {@link dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef}; owner. The
   * ownership check in front of every Work file and sandbox request: the account and the task, no
   * run, messages or approvals (a {@link #GET} reads a page of up to 1 MB of messages). terminal-service
   * repeats it as the ticket's account while a Work terminal is open: a revocation closes the shell.
   */
  public static final Subject<TaskRef, dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef> SANDBOX =
      Subject.of(P + "tasks.sandbox", TaskRef.class, dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef.class, ServiceName.TASK, NatsUser.GATEWAY, NatsUser.TERMINAL);
  /** {@link UpdateTask} → {@link TaskView}; owner. Rename or change the route. */
  public static final Subject<UpdateTask, TaskView> UPDATE =
      Subject.of(P + "tasks.update", UpdateTask.class, TaskView.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link TaskRef} → {@link TaskDeleted}; owner. Sandbox deleted first; on failure the record stays. */
  public static final Subject<TaskRef, TaskDeleted> DELETE =
      Subject.of(P + "tasks.delete", TaskRef.class, TaskDeleted.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link TaskRef} → {@link TaskView}; owner. Moves the monotonic seen marker to now. */
  public static final Subject<TaskRef, TaskView> SEEN =
      Subject.of(P + "tasks.seen", TaskRef.class, TaskView.class, ServiceName.TASK, NatsUser.GATEWAY);

  /**
   * Which of the given task ids still exist ({@link KnownTasks} → {@link KnownTasksReply}).
   * sandbox-service asks at start to tell its sandboxes from orphans; service actors only.
   */
  public static final Subject<KnownTasks, KnownTasksReply> KNOWN_TASKS =
      Subject.of(P + "tasks.known", KnownTasks.class, KnownTasksReply.class, ServiceName.TASK, NatsUser.SANDBOX, NatsUser.SANDBOX_MIRROR);

  // --- runs and messages (owner) ---

  /** {@link StartRun} → {@link RunStarted}; owner. Answers run_active while a run is active. */
  public static final Subject<StartRun, RunStarted> RUN_START =
      Subject.of(P + "runs.start", StartRun.class, RunStarted.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link TaskRef} → {@link RunCancelled}; owner. */
  public static final Subject<TaskRef, RunCancelled> RUN_CANCEL =
      Subject.of(P + "runs.cancel", TaskRef.class, RunCancelled.class, ServiceName.TASK, NatsUser.GATEWAY);
  /**
   * {@link GetRun} → {@link RunDetail}; owner. Any run of the task by id, older ones included; a run
   * of another account's task, or of another task, is not_found.
   */
  public static final Subject<GetRun, RunDetail> RUN_GET =
      Subject.of(P + "runs.get", GetRun.class, RunDetail.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link PostMessage} → {@link MessageView}; owner. Answers no_active_run without a run. */
  public static final Subject<PostMessage, MessageView> MESSAGE_POST =
      Subject.of(P + "messages.post", PostMessage.class, MessageView.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link PageMessages} → {@link MessagePage}; owner. */
  public static final Subject<PageMessages, MessagePage> MESSAGE_PAGE =
      Subject.of(P + "messages.page", PageMessages.class, MessagePage.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ListToolActivity} → {@link ToolActivityPage}; owner. */
  public static final Subject<ListToolActivity, ToolActivityPage> TOOL_ACTIVITY =
      Subject.of(P + "tools.list", ListToolActivity.class, ToolActivityPage.class, ServiceName.TASK, NatsUser.GATEWAY);

  // --- approvals (owner) ---

  /** {@link TaskRef} → {@link ApprovalsState}; owner. */
  public static final Subject<TaskRef, ApprovalsState> APPROVALS =
      Subject.of(P + "approvals.list", TaskRef.class, ApprovalsState.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link SetApprovals} → {@link ApprovalsState}; owner. Refused when the policy locks approvals on. */
  public static final Subject<SetApprovals, ApprovalsState> APPROVALS_TOGGLE =
      Subject.of(P + "approvals.toggle", SetApprovals.class, ApprovalsState.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link DecideApproval} → {@link ApprovalView}; owner. Audited. */
  public static final Subject<DecideApproval, ApprovalView> APPROVAL_DECIDE =
      Subject.of(P + "approvals.decide", DecideApproval.class, ApprovalView.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link DeleteApprovalRule} → {@link ApprovalsState}; owner. Audited. */
  public static final Subject<DeleteApprovalRule, ApprovalsState> APPROVAL_RULE_DELETE =
      Subject.of(P + "approvals.rules.delete", DeleteApprovalRule.class, ApprovalsState.class, ServiceName.TASK, NatsUser.GATEWAY);

  // --- tickets and preview ---

  /** {@link IssueTicket} → {@link TicketIssued}; owner. */
  public static final Subject<IssueTicket, TicketIssued> TICKET_ISSUE =
      Subject.of(P + "tickets.issue", IssueTicket.class, TicketIssued.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ConsumeTicket} → {@link TicketGrant}; service. One use only. */
  public static final Subject<ConsumeTicket, TicketGrant> TICKET_CONSUME =
      Subject.of(P + "tickets.consume", ConsumeTicket.class, TicketGrant.class, ServiceName.TASK, NatsUser.TERMINAL, NatsUser.PREVIEW_PROXY);
  /** {@link TaskRef} → {@link PreviewView}; owner or service. */
  public static final Subject<TaskRef, PreviewView> PREVIEW_GET =
      Subject.of(P + "preview.get", TaskRef.class, PreviewView.class, ServiceName.TASK, NatsUser.PREVIEW_PROXY, NatsUser.GATEWAY);
  /** {@link SetPreview} → {@link PreviewView}; service (sandbox-service). */
  public static final Subject<SetPreview, PreviewView> PREVIEW_SET =
      Subject.of(P + "preview.set", SetPreview.class, PreviewView.class, ServiceName.TASK, NatsUser.SANDBOX);

  // --- access, roles, policies, audit ---

  /** {@link GetAccess} → {@link AccessMode}; any actor. */
  public static final Subject<GetAccess, AccessMode> ACCESS_GET =
      Subject.of(P + "access.get", GetAccess.class, AccessMode.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ListPolicies} → {@link PolicyList}; owner (to choose one at create). */
  public static final Subject<ListPolicies, PolicyList> POLICIES =
      Subject.of(P + "policies.list", ListPolicies.class, PolicyList.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link SetAccess} → {@link AccessChanged}; admin. Stored first, then users' tasks are paused. */
  public static final Subject<SetAccess, AccessChanged> ADMIN_ACCESS_SET =
      Subject.of(P + "admin.access.set", SetAccess.class, AccessChanged.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ListAccounts} → {@link AccountList}; admin. */
  public static final Subject<ListAccounts, AccountList> ADMIN_ACCOUNTS =
      Subject.of(P + "admin.accounts.list", ListAccounts.class, AccountList.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link SetRole} → {@link RoleChanged}; admin. Stored first, then a demoted user's tasks are paused. */
  public static final Subject<SetRole, RoleChanged> ADMIN_ROLE_SET =
      Subject.of(P + "admin.accounts.role", SetRole.class, RoleChanged.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link SetStatus} → {@link StatusChanged}; admin. Stored first, then a disabled account's tasks are paused. */
  public static final Subject<SetStatus, StatusChanged> ADMIN_STATUS_SET =
      Subject.of(P + "admin.accounts.status", SetStatus.class, StatusChanged.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link DeleteAccount} → {@link AccountDeleted}; admin. Work resources first; the account stays on failure. */
  public static final Subject<DeleteAccount, AccountDeleted> ADMIN_ACCOUNT_DELETE =
      Subject.of(P + "admin.accounts.delete", DeleteAccount.class, AccountDeleted.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ListTasks} → {@link TaskList}; admin. Every account's tasks (the explicit admin view). */
  public static final Subject<ListTasks, TaskList> ADMIN_TASKS =
      Subject.of(P + "admin.tasks.list", ListTasks.class, TaskList.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link SavePolicy} → {@link PolicyView}; admin. Audited. */
  public static final Subject<SavePolicy, PolicyView> ADMIN_POLICY_SAVE =
      Subject.of(P + "admin.policies.save", SavePolicy.class, PolicyView.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link PolicyRef} → {@link PolicyDeleted}; admin. Audited. */
  public static final Subject<PolicyRef, PolicyDeleted> ADMIN_POLICY_DELETE =
      Subject.of(P + "admin.policies.delete", PolicyRef.class, PolicyDeleted.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ListAudit} → {@link AuditPage}; admin. */
  public static final Subject<ListAudit, AuditPage> ADMIN_AUDIT =
      Subject.of(P + "admin.audit.list", ListAudit.class, AuditPage.class, ServiceName.TASK, NatsUser.GATEWAY);

  /**
   * task-service tells every gateway, at once, that an account's reach narrowed: its status, role or
   * Work access changed, or one of its tasks is being deleted ({@link AccessNarrowed}; core NATS, fire and
   * forget). The gateway forgets the ownership checks it reuses for that account or task (decision 0025).
   */
  public static final Push<AccessNarrowed> ACCESS_NARROWED =
      Push.core(P + "access.narrowed", AccessNarrowed.class,
          Push.by(NatsUser.TASK), Push.by(NatsUser.GATEWAY));

  // --- agent-runner and sandbox-service (service) ---

  /**
   * {@link ClaimRun} → {@link ClaimedRun}; service. The one request that starts a run: preparing →
   * running with the runner's lease, the spec and the model context, in one transaction.
   */
  public static final Subject<ClaimRun, ClaimedRun> RUNNER_CLAIM =
      Subject.of(P + "runner.run.claim", ClaimRun.class, ClaimedRun.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /** {@link RunTransition} → {@link RunView}; service. Ends the run; task-service publishes its final events. */
  public static final Subject<RunTransition, RunView> RUNNER_TRANSITION =
      Subject.of(P + "runner.run.transition", RunTransition.class, RunView.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /** {@link RecordRound} → {@link RoundRecorded}; service. A round's usage and assistant message in one write. */
  public static final Subject<RecordRound, RoundRecorded> RUNNER_ROUND =
      Subject.of(P + "runner.run.round", RecordRound.class, RoundRecorded.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /** {@link RunRef} → {@link PendingMessages}; service. Returns and marks delivered the mid-run messages. */
  public static final Subject<RunRef, PendingMessages> RUNNER_PENDING =
      Subject.of(P + "runner.messages.pending", RunRef.class, PendingMessages.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /** {@link ToolStarted} → {@link ToolRecorded}; service. The one request at a tool call's start. */
  public static final Subject<ToolStarted, ToolRecorded> RUNNER_TOOL_START =
      Subject.of(P + "runner.tools.start", ToolStarted.class, ToolRecorded.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /** {@link ToolFinished} → {@link ToolRecorded}; service. The one request at its end: activity result and tool message. */
  public static final Subject<ToolFinished, ToolRecorded> RUNNER_TOOL_FINISH =
      Subject.of(P + "runner.tools.finish", ToolFinished.class, ToolRecorded.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /** {@link RequestApproval} → {@link ApprovalView}; service. */
  public static final Subject<RequestApproval, ApprovalView> RUNNER_APPROVAL_REQUEST =
      Subject.of(P + "runner.approvals.request", RequestApproval.class, ApprovalView.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /** {@link ApprovalRef} → {@link ApprovalView}; service. */
  public static final Subject<ApprovalRef, ApprovalView> RUNNER_APPROVAL_GET =
      Subject.of(P + "runner.approvals.get", ApprovalRef.class, ApprovalView.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /**
   * {@link RunControlApi.Heartbeat} → {@link RunControlApi.LeaseState}; service (agent-runner). Renews
   * the lease the runner took with {@link #RUNNER_CLAIM}; a run whose lease expires is failed
   * ({@code runner_lost}). The answer also says the run's state (the runner reads it to learn whether
   * the run ended in task-service).
   */
  public static final Subject<RunControlApi.Heartbeat, RunControlApi.LeaseState> RUNNER_HEARTBEAT =
      Subject.of(P + "runner.run.heartbeat", RunControlApi.Heartbeat.class, RunControlApi.LeaseState.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);
  /** {@link RuntimeSpecRequest} → {@link RuntimeSpec}; service (sandbox-service). */
  public static final Subject<RuntimeSpecRequest, RuntimeSpec> RUNTIME_SPEC =
      Subject.of(P + "runtime.spec", RuntimeSpecRequest.class, RuntimeSpec.class, ServiceName.TASK, NatsUser.SANDBOX);

  /**
   * Owner and admin subjects whose handler checks the caller against the database before it reads or
   * changes anything, in the same session: the account exists ({@code unauthenticated}) and is active
   * ({@code account_disabled}), Work is open to its stored role ({@code work_access_denied}; admin
   * subjects: {@code forbidden}), and the role in the headers is the stored one ({@code role_changed}).
   * The gateway sends these with the role its token claims and no separate account read; on
   * {@code role_changed} it reads the account and asks again with the stored role.
   */
  public static final java.util.Set<Subject<?, ?>> CALLER_CHECKED = java.util.Set.of(CREATE, LIST, GET, SANDBOX, UPDATE,
      DELETE, RUN_START, RUN_CANCEL, RUN_GET, MESSAGE_POST, MESSAGE_PAGE, APPROVALS, APPROVALS_TOGGLE, APPROVAL_DECIDE,
      APPROVAL_RULE_DELETE, TICKET_ISSUE, POLICIES, ADMIN_TASKS);

  private TaskSubjects() {}

  /**
   * Whose reach narrowed: {@code accountId} null means every account (the access mode changed);
   * {@code taskId} null means every task of the account.
   */
  public record AccessNarrowed(String accountId, String taskId) {

    public static AccessNarrowed everyAccount() {
      return new AccessNarrowed(null, null);
    }

    public static AccessNarrowed account(String accountId) {
      return new AccessNarrowed(accountId, null);
    }

    public static AccessNarrowed task(String accountId, String taskId) {
      return new AccessNarrowed(accountId, taskId);
    }
  }

  public record KnownTasks(java.util.List<String> taskIds) {}

  public record KnownTasksReply(java.util.List<String> known) {}
}
