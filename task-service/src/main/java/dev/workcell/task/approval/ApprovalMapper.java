package dev.workcell.task.approval;

import dev.workcell.contracts.task.ApprovalDecision;
import dev.workcell.contracts.task.ApprovalRuleView;
import dev.workcell.contracts.task.ApprovalState;
import dev.workcell.contracts.task.ApprovalView;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Entities → contract records; the stored state and decision columns hold the enums' wire names. */
public final class ApprovalMapper {

  private ApprovalMapper() {}

  public static ApprovalView toView(ApprovalEntity a) {
    return new ApprovalView(a.id.toString(), a.taskId.toString(), a.runId.toString(), a.toolCallId, a.toolName,
        a.program, a.summary, ApprovalState.fromWire(a.state),
        a.decision == null ? null : ApprovalDecision.fromWire(a.decision), instant(a.createdAt), instant(a.expiresAt), instant(a.decidedAt));
  }

  public static ApprovalRuleView toView(ApprovalRuleEntity r) {
    return new ApprovalRuleView(r.id.toString(), r.taskId.toString(), r.toolName, r.program, instant(r.createdAt));
  }

  private static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }
}
