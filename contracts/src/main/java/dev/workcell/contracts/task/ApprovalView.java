package dev.workcell.contracts.task;

import java.time.Instant;

/**
 * An approval of one side-effecting tool call. {@code state}: pending, allowed, denied or expired.
 * {@code decision}: allow_once, always_allow, deny, rule (an always-allow rule matched),
 * not_required (approvals are off for the task) or timeout.
 */
public record ApprovalView(
    String id,
    String taskId,
    String runId,
    String toolCallId,
    String toolName,
    String program,
    String summary,
    String state,
    String decision,
    Instant createdAt,
    Instant expiresAt,
    Instant decidedAt) {

  public boolean allowed() {
    return "allowed".equals(state);
  }
}
