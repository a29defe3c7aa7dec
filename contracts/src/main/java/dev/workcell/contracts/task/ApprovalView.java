package dev.workcell.contracts.task;

import java.time.Instant;

/**
 * An approval of one side-effecting tool call: its {@link ApprovalState} and, once settled, its
 * {@link ApprovalDecision} (null while pending).
 */
public record ApprovalView(
    String id,
    String taskId,
    String runId,
    String toolCallId,
    String toolName,
    String program,
    String summary,
    ApprovalState state,
    ApprovalDecision decision,
    Instant createdAt,
    Instant expiresAt,
    Instant decidedAt) {

  public boolean allowed() {
    return state == ApprovalState.ALLOWED;
  }
}
