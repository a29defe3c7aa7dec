package dev.workcell.task.approval.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.ApprovalApi.ApprovalsState;
import dev.workcell.contracts.task.ApprovalApi.DecideApproval;
import dev.workcell.contracts.task.ApprovalApi.DeleteApprovalRule;
import dev.workcell.contracts.task.ApprovalApi.SetApprovals;
import dev.workcell.contracts.task.ApprovalDecision;
import dev.workcell.contracts.task.ApprovalState;
import dev.workcell.contracts.task.ApprovalView;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.ApprovalRef;
import dev.workcell.contracts.task.RunnerApi.RequestApproval;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.approval.ApprovalEntity;
import dev.workcell.task.approval.ApprovalMapper;
import dev.workcell.task.approval.repository.ApprovalRepository;
import dev.workcell.task.approval.repository.ApprovalRuleRepository;
import dev.workcell.task.audit.service.AuditLog;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.policy.repository.PolicyRepository;
import dev.workcell.task.run.service.RunService;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.TaskEntity;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Auto Review: the runner asks before a side-effecting call, the owner decides (allow once, always
 * allow, deny), undecided requests expire. Every decision lands in the audit log.
 */
@ApplicationScoped
public class ApprovalService {

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final PolicyRepository policies;
  private final RunService runs;
  private final ApprovalRepository approvals;
  private final ApprovalRuleRepository rules;
  private final AuditLog audit;
  private final TaskSettings settings;

  public ApprovalService(WorkAccess access, TaskRepository tasks, PolicyRepository policies, RunService runs,
      ApprovalRepository approvals, ApprovalRuleRepository rules, AuditLog audit, TaskSettings settings) {
    this.access = access;
    this.tasks = tasks;
    this.policies = policies;
    this.runs = runs;
    this.approvals = approvals;
    this.rules = rules;
    this.audit = audit;
    this.settings = settings;
  }

  /** The runner's question; allowed at once when approvals are off or a rule covers the call. */
  public Uni<ApprovalView> request(Actor actor, RequestApproval request) {
    WorkAccess.requireService(actor);
    if (blank(request.toolCallId()) || blank(request.toolName())) {
      throw Failures.invalid("toolCallId and toolName are required");
    }
    String program = blank(request.program()) ? null : cut(request.program().strip(), 500);
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> runs.runOf(request.taskId(), request.runId())
        .call(run -> RunState.fromWire(run.state).active() ? Uni.createFrom().voidItem()
            : Failures.fail(ErrorCode.CONFLICT, "the run is " + run.state))
        .chain(run -> tasks.findById(run.taskId).chain(task -> required(task).chain(required -> {
          ApprovalEntity approval = new ApprovalEntity();
          approval.id = UUID.randomUUID();
          approval.taskId = run.taskId;
          approval.runId = run.id;
          approval.toolCallId = cut(request.toolCallId(), 200);
          approval.toolName = cut(request.toolName(), 200);
          approval.program = program;
          approval.summary = request.summary() == null ? null : cut(request.summary(), 2000);
          approval.createdAt = now;
          approval.expiresAt = now.plus(settings.approvalTimeout());
          if (!required) {
            return settle(approval, ApprovalDecision.NOT_REQUIRED, now).chain(() -> approvals.persist(approval));
          }
          return rules.matching(task.id, approval.toolName, program).chain(rule -> {
            if (rule == null) {
              approval.state = ApprovalState.PENDING.wire();
              return approvals.persist(approval);
            }
            return settle(approval, ApprovalDecision.RULE, now).chain(() -> approvals.persist(approval))
                .call(saved -> audit.record(actor, "approval.allowed_by_rule", task.id, detail(saved)));
          });
        })))
        .map(ApprovalMapper::toView));
  }

  /** The runner polls; a pending approval past its deadline turns expired here. */
  public Uni<ApprovalView> get(Actor actor, ApprovalRef request) {
    WorkAccess.requireService(actor);
    UUID taskId = Ids.parse(request.taskId()).orElse(null);
    UUID approvalId = Ids.parse(request.approvalId()).orElse(null);
    if (taskId == null || approvalId == null) {
      return Failures.fail(ErrorCode.NOT_FOUND, "no such approval");
    }
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> expire(actor, taskId, now)
        .chain(() -> approvals.ofTask(taskId, approvalId))
        .onItem().ifNull().failWith(() -> Failures.error(ErrorCode.NOT_FOUND, "no such approval"))
        .map(ApprovalMapper::toView));
  }

  public Uni<ApprovalsState> list(Actor actor, TaskRef request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    return Panache.withTransaction(() -> owned(actor, taskId)
        .chain(task -> expire(actor, task.id, OffsetDateTime.now()).chain(() -> state(task))));
  }

  /** The owner's Auto Review switch; a policy that requires approvals locks it on. */
  public Uni<ApprovalsState> toggle(Actor actor, SetApprovals request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    return Panache.withTransaction(() -> owned(actor, taskId)
        .chain(task -> locked(task).chain(locked -> {
          if (locked && !request.enabled()) {
            return Failures.<ApprovalsState>fail(ErrorCode.CONFLICT, "the task's runtime policy requires approvals");
          }
          task.approvalsEnabled = request.enabled();
          task.updatedAt = OffsetDateTime.now();
          return audit.record(actor, "approvals.toggle", task.id, Map.of("enabled", request.enabled()))
              .chain(() -> state(task));
        })));
  }

  /** Allow once, always allow (which adds a rule) or deny; only while pending and not expired. */
  public Uni<ApprovalView> decide(Actor actor, DecideApproval request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    UUID approvalId = Ids.parse(request.approvalId()).orElse(null);
    ApprovalDecision decision = request.decision();
    if (decision == null || !ApprovalDecision.OWNER_CHOICES.contains(decision)) {
      throw Failures.invalid("decision must be allow_once, always_allow or deny");
    }
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> owned(actor, taskId)
        .chain(task -> approvalId == null ? Uni.createFrom().<ApprovalEntity>nullItem()
            : approvals.ofTask(task.id, approvalId))
        .onItem().ifNull().failWith(() -> Failures.error(ErrorCode.NOT_FOUND, "no such approval"))
        .chain(approval -> approvals.decide(approval.id, decision,
                actor.accountId(), now)
            .chain(updated -> updated == 1 ? Uni.createFrom().voidItem()
                : Failures.<Void>fail(ErrorCode.CONFLICT, approval.expiresAt.isAfter(now)
                    ? "the approval was already decided" : "the approval expired"))
            .chain(() -> decision == ApprovalDecision.ALWAYS_ALLOW
                ? rules.addIfAbsent(approval.taskId, approval.toolName, approval.program, actor.accountId())
                : Uni.createFrom().item(0))
            .chain(() -> Panache.getSession().invoke(session -> {
              // Mirror the conditional update on a detached copy for the reply and the audit entry.
              session.detach(approval);
              approval.state = decision.outcome().wire();
              approval.decision = decision.wire();
              approval.decidedBy = actor.accountId();
              approval.decidedAt = now;
            }))
            .call(() -> audit.record(actor, "approval.decide", approval.taskId, detail(approval)))
            .map(ignored -> ApprovalMapper.toView(approval))));
  }

  /** Closes an always-allow scope again. */
  public Uni<ApprovalsState> deleteRule(Actor actor, DeleteApprovalRule request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    UUID ruleId = Ids.parse(request.ruleId()).orElse(null);
    return Panache.withTransaction(() -> owned(actor, taskId)
        .chain(task -> (ruleId == null ? Uni.createFrom().item(0L)
                : rules.delete("id = ?1 and taskId = ?2", ruleId, task.id))
            .chain(deleted -> deleted == 0 ? Failures.<Void>fail(ErrorCode.NOT_FOUND, "no such rule")
                : audit.record(actor, "approval_rule.delete", task.id, Map.of("ruleId", ruleId.toString())))
            .chain(() -> state(task))));
  }

  private Uni<TaskEntity> owned(Actor actor, UUID taskId) {
    return access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
        .onItem().ifNull().failWith(Failures::taskNotFound);
  }

  private Uni<Void> expire(Actor actor, UUID taskId, OffsetDateTime now) {
    return approvals.expireDue(taskId, now).chain(expired -> expired == 0 ? Uni.createFrom().voidItem()
        : audit.record(actor, "approval.expire", taskId, Map.of("count", expired)));
  }

  private Uni<ApprovalsState> state(TaskEntity task) {
    return locked(task).chain(locked -> approvals.pending(task.id).chain(pending -> rules.ofTask(task.id)
        .map(ruleList -> new ApprovalsState(task.id.toString(), task.approvalsEnabled || locked, locked,
            pending.stream().map(ApprovalMapper::toView).toList(),
            ruleList.stream().map(ApprovalMapper::toView).toList()))));
  }

  private Uni<Boolean> locked(TaskEntity task) {
    return task.policyId == null ? Uni.createFrom().item(false)
        : policies.findById(task.policyId).map(policy -> policy != null && policy.requireApproval);
  }

  private Uni<Boolean> required(TaskEntity task) {
    return task.approvalsEnabled ? Uni.createFrom().item(true) : locked(task);
  }

  private static Uni<Void> settle(ApprovalEntity approval, ApprovalDecision decision, OffsetDateTime now) {
    approval.state = decision.outcome().wire();
    approval.decision = decision.wire();
    approval.decidedAt = now;
    return Uni.createFrom().voidItem();
  }

  private static Map<String, Object> detail(ApprovalEntity a) {
    Map<String, Object> detail = new HashMap<>();
    detail.put("approvalId", a.id.toString());
    detail.put("tool", a.toolName);
    detail.put("program", a.program);
    detail.put("state", a.state);
    detail.put("decision", a.decision);
    return detail;
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  private static String cut(String value, int max) {
    return value.length() > max ? value.substring(0, max) : value;
  }
}
