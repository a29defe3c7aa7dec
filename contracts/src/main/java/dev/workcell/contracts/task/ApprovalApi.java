package dev.workcell.contracts.task;

import java.util.List;

/** Owner-facing approval subjects ("Auto Review"). */
public final class ApprovalApi {

  private ApprovalApi() {}

  /**
   * The task's approval toggle, whether its policy locks it on, pending approvals and rules.
   */
  public record ApprovalsState(String taskId, boolean enabled, boolean lockedByPolicy, List<ApprovalView> pending,
      List<ApprovalRuleView> rules) {}

  public record SetApprovals(String taskId, boolean enabled) {}

  /** {@code decision}: one of {@link ApprovalDecision#OWNER_CHOICES}. */
  public record DecideApproval(String taskId, String approvalId, ApprovalDecision decision) {}

  public record DeleteApprovalRule(String taskId, String ruleId) {}
}
