package dev.workcell.contracts.task;

import java.util.List;

/**
 * Requests and replies of the subjects agent-runner uses while it drives a run. Service actors only;
 * every request names the task and the run, and the run must belong to the task.
 */
public final class RunnerApi {

  private RunnerApi() {}

  public record RunRef(String taskId, String runId) {}

  /** Everything the runner needs to drive a run: the run with its route, the task and its policy. */
  public record RunSpec(RunView run, TaskView task, PolicyView policy, boolean approvalsRequired) {}

  /**
   * Moves a run: preparing → running, or an active run to completed, needs_input, failed or
   * cancelled. The task follows. A run that already ended answers {@code conflict}.
   */
  public record RunTransition(String taskId, String runId, RunState state, String reason) {}

  /** Adds to the run's usage counters (deltas, not totals). */
  public record AddUsage(String taskId, String runId, long inputTokens, long outputTokens, int rounds, int toolCalls) {}

  /**
   * The model context of a run: the last 30 user/assistant messages within 256 kB, with the tool
   * results whose assistant call is inside the window (orphans dropped), oldest first. Asking for it
   * also marks the run's mid-run messages delivered: they are in it.
   */
  public record ModelContext(String taskId, String runId, RunState runState, List<MessageView> messages, long bytes, int droppedOrphans) {}

  /** Messages posted during the run and not yet handed to it; they are marked delivered by this reply. */
  public record PendingMessages(RunState runState, List<MessageView> messages) {}

  /**
   * Appends an assistant, tool or system message to an active run's conversation. Tool content is
   * stored up to 20,000 characters plus a marker; other content up to 100 kB plus a marker.
   */
  public record AppendMessage(String taskId, String runId, MessageRole role, String content, String toolCallId, List<ToolCall> toolCalls) {}

  /**
   * Records a tool call of the run for the Activity view, keyed by {@code toolCallId}: send it once
   * with status running when the call starts and again with the result. {@code sourceTruncated}
   * says the tool itself already cut the output.
   */
  public record RecordToolActivity(
      String taskId, String runId, String toolCallId, String toolName, String arguments, String status, String output,
      boolean sourceTruncated) {}

  /**
   * Asks whether a side-effecting call may run. The reply is allowed at once when approvals are off
   * or an always-allow rule matches; otherwise pending until decided or expired (5 minutes).
   * {@code program} is the first token of a run_command, or the target of message_agent.
   */
  public record RequestApproval(String taskId, String runId, String toolCallId, String toolName, String program, String summary) {}

  /** Reads an approval; a pending one past its deadline turns expired on read. */
  public record ApprovalRef(String taskId, String approvalId) {}

  /** What sandbox-service needs to build a task's runtime. */
  public record RuntimeSpecRequest(String taskId) {}

  public record RuntimeSpec(String taskId, String ownerId, String sandboxName, String volumeName, boolean networkEnabled,
      PolicyView policy, boolean decommissioning) {}
}
