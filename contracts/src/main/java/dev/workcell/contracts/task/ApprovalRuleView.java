package dev.workcell.contracts.task;

import java.time.Instant;

/** An always-allow rule: the whole tool, or for run_command one program (first token). */
public record ApprovalRuleView(String id, String taskId, String toolName, String program, Instant createdAt) {}
