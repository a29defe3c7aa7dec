package dev.workcell.contracts.task;

import dev.workcell.contracts.task.ApprovalApi.ApprovalsState;
import dev.workcell.contracts.task.ApprovalApi.DecideApproval;
import dev.workcell.contracts.task.ApprovalApi.DeleteApprovalRule;
import dev.workcell.contracts.task.ApprovalApi.SetApprovals;
import dev.workcell.contracts.task.PreviewApi.SetPreview;
import dev.workcell.contracts.task.RunnerApi.AddUsage;
import dev.workcell.contracts.task.RunnerApi.AppendMessage;
import dev.workcell.contracts.task.RunnerApi.ApprovalRef;
import dev.workcell.contracts.task.RunnerApi.ModelContext;
import dev.workcell.contracts.task.RunnerApi.PendingMessages;
import dev.workcell.contracts.task.RunnerApi.RecordToolActivity;
import dev.workcell.contracts.task.RunnerApi.RequestApproval;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.RunnerApi.RunSpec;
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
import dev.workcell.contracts.task.WorkAdminApi.AuditPage;
import dev.workcell.contracts.task.WorkAdminApi.DeleteAccount;
import dev.workcell.contracts.task.WorkAdminApi.GetAccess;
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
  public static final String CREATE = P + "tasks.create";
  /** {@link ListTasks} → {@link TaskList}; owner (own tasks only). */
  public static final String LIST = P + "tasks.list";
  /** {@link TaskRef} → {@link TaskDetail}; owner. */
  public static final String GET = P + "tasks.get";
  /**
   * {@link TaskRef} → {@link dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef}; owner. The
   * ownership check in front of every Work file and sandbox request: the account and the task, no
   * run, messages or approvals (a {@link #GET} reads a page of up to 1 MB of messages).
   */
  public static final String SANDBOX = P + "tasks.sandbox";
  /** {@link UpdateTask} → {@link TaskView}; owner. Rename or change the route. */
  public static final String UPDATE = P + "tasks.update";
  /** {@link TaskRef} → {@link TaskDeleted}; owner. Sandbox deleted first; on failure the record stays. */
  public static final String DELETE = P + "tasks.delete";
  /** {@link TaskRef} → {@link TaskView}; owner. Moves the monotonic seen marker to now. */
  public static final String SEEN = P + "tasks.seen";

  /**
   * Which of the given task ids still exist ({@link KnownTasks} → {@link KnownTasksReply}).
   * sandbox-service asks at start to tell its sandboxes from orphans; service actors only.
   */
  public static final String KNOWN_TASKS = P + "tasks.known";

  // --- runs and messages (owner) ---

  /** {@link StartRun} → {@link RunStarted}; owner. Answers run_active while a run is active. */
  public static final String RUN_START = P + "runs.start";
  /** {@link TaskRef} → {@link RunCancelled}; owner. */
  public static final String RUN_CANCEL = P + "runs.cancel";
  /**
   * {@link GetRun} → {@link RunDetail}; owner. Any run of the task by id, older ones included; a run
   * of another account's task, or of another task, is not_found.
   */
  public static final String RUN_GET = P + "runs.get";
  /** {@link PostMessage} → {@link MessageView}; owner. Answers no_active_run without a run. */
  public static final String MESSAGE_POST = P + "messages.post";
  /** {@link PageMessages} → {@link MessagePage}; owner. */
  public static final String MESSAGE_PAGE = P + "messages.page";
  /** {@link ListToolActivity} → {@link ToolActivityPage}; owner. */
  public static final String TOOL_ACTIVITY = P + "tools.list";

  // --- approvals (owner) ---

  /** {@link TaskRef} → {@link ApprovalsState}; owner. */
  public static final String APPROVALS = P + "approvals.list";
  /** {@link SetApprovals} → {@link ApprovalsState}; owner. Refused when the policy locks approvals on. */
  public static final String APPROVALS_TOGGLE = P + "approvals.toggle";
  /** {@link DecideApproval} → {@link ApprovalView}; owner. Audited. */
  public static final String APPROVAL_DECIDE = P + "approvals.decide";
  /** {@link DeleteApprovalRule} → {@link ApprovalsState}; owner. Audited. */
  public static final String APPROVAL_RULE_DELETE = P + "approvals.rules.delete";

  // --- tickets and preview ---

  /** {@link IssueTicket} → {@link TicketIssued}; owner. */
  public static final String TICKET_ISSUE = P + "tickets.issue";
  /** {@link ConsumeTicket} → {@link TicketGrant}; service. One use only. */
  public static final String TICKET_CONSUME = P + "tickets.consume";
  /** {@link TaskRef} → {@link PreviewView}; owner or service. */
  public static final String PREVIEW_GET = P + "preview.get";
  /** {@link SetPreview} → {@link PreviewView}; service (sandbox-service). */
  public static final String PREVIEW_SET = P + "preview.set";

  // --- access, roles, policies, audit ---

  /** {@link GetAccess} → {@link AccessMode}; any actor. */
  public static final String ACCESS_GET = P + "access.get";
  /** {@link ListPolicies} → {@link PolicyList}; owner (to choose one at create). */
  public static final String POLICIES = P + "policies.list";
  /** {@link SetAccess} → {@link AccessChanged}; admin. Stored first, then users' tasks are paused. */
  public static final String ADMIN_ACCESS_SET = P + "admin.access.set";
  /** {@link SetRole} → {@link RoleChanged}; admin. Stored first, then a demoted user's tasks are paused. */
  public static final String ADMIN_ROLE_SET = P + "admin.accounts.role";
  /** {@link SetStatus} → {@link StatusChanged}; admin. Stored first, then a disabled account's tasks are paused. */
  public static final String ADMIN_STATUS_SET = P + "admin.accounts.status";
  /** {@link DeleteAccount} → {@link AccountDeleted}; admin. Work resources first; the account stays on failure. */
  public static final String ADMIN_ACCOUNT_DELETE = P + "admin.accounts.delete";
  /** {@link ListTasks} → {@link TaskList}; admin. Every account's tasks (the explicit admin view). */
  public static final String ADMIN_TASKS = P + "admin.tasks.list";
  /** {@link SavePolicy} → {@link PolicyView}; admin. Audited. */
  public static final String ADMIN_POLICY_SAVE = P + "admin.policies.save";
  /** {@link PolicyRef} → {@link PolicyDeleted}; admin. Audited. */
  public static final String ADMIN_POLICY_DELETE = P + "admin.policies.delete";
  /** {@link ListAudit} → {@link AuditPage}; admin. */
  public static final String ADMIN_AUDIT = P + "admin.audit.list";

  // --- agent-runner and sandbox-service (service) ---

  /** {@link RunRef} → {@link RunSpec}; service. */
  public static final String RUNNER_RUN = P + "runner.run.get";
  /** {@link RunTransition} → {@link RunView}; service. */
  public static final String RUNNER_TRANSITION = P + "runner.run.transition";
  /** {@link AddUsage} → {@link RunView}; service. */
  public static final String RUNNER_USAGE = P + "runner.run.usage";
  /** {@link RunRef} → {@link ModelContext}; service. */
  public static final String RUNNER_CONTEXT = P + "runner.context";
  /** {@link RunRef} → {@link PendingMessages}; service. Returns and marks delivered the mid-run messages. */
  public static final String RUNNER_PENDING = P + "runner.messages.pending";
  /** {@link AppendMessage} → {@link MessageView}; service. */
  public static final String RUNNER_APPEND = P + "runner.messages.append";
  /** {@link RecordToolActivity} → {@link ToolActivityView}; service. */
  public static final String RUNNER_TOOL = P + "runner.tools.record";
  /** {@link RequestApproval} → {@link ApprovalView}; service. */
  public static final String RUNNER_APPROVAL_REQUEST = P + "runner.approvals.request";
  /** {@link ApprovalRef} → {@link ApprovalView}; service. */
  public static final String RUNNER_APPROVAL_GET = P + "runner.approvals.get";
  /**
   * {@link RunControlApi.Heartbeat} → {@link RunControlApi.LeaseState}; service (agent-runner). Claims
   * and renews the runner's lease on a run; a run whose lease expires is failed ({@code runner_lost}).
   */
  public static final String RUNNER_HEARTBEAT = P + "runner.run.heartbeat";
  /** {@link RuntimeSpecRequest} → {@link RuntimeSpec}; service (sandbox-service). */
  public static final String RUNTIME_SPEC = P + "runtime.spec";

  /**
   * Owner and admin subjects whose handler checks the caller against the database before it reads or
   * changes anything, in the same session: the account exists ({@code unauthenticated}) and is active
   * ({@code account_disabled}), Work is open to its stored role ({@code work_access_denied}; admin
   * subjects: {@code forbidden}), and the role in the headers is the stored one ({@code role_changed}).
   * The gateway sends these with the role its token claims and no separate account read; on
   * {@code role_changed} it reads the account and asks again with the stored role.
   */
  public static final java.util.Set<String> CALLER_CHECKED = java.util.Set.of(CREATE, LIST, GET, UPDATE, DELETE,
      RUN_START, RUN_CANCEL, RUN_GET, MESSAGE_POST, MESSAGE_PAGE, APPROVALS, APPROVALS_TOGGLE, APPROVAL_DECIDE,
      APPROVAL_RULE_DELETE, TICKET_ISSUE, POLICIES, ADMIN_TASKS);

  private TaskSubjects() {}

  public record KnownTasks(java.util.List<String> taskIds) {}

  public record KnownTasksReply(java.util.List<String> known) {}
}
