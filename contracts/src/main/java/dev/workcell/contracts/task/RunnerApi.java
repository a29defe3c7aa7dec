package dev.workcell.contracts.task;

import java.util.List;

/**
 * Requests and replies of the subjects agent-runner uses while it drives a run. Service actors only;
 * every request names the task and the run, and the run must belong to the task.
 */
public final class RunnerApi {

  private RunnerApi() {}

  public record RunRef(String taskId, String runId) {}

  /**
   * Takes a queued run for the runner {@code runnerId}: in one transaction the run moves preparing →
   * running with this runner's lease (the task follows), its mid-run messages are marked delivered,
   * and everything the runner needs comes back ({@link ClaimedRun}). Of several runners claiming the
   * same run exactly one gets it; the others, and a claim of a run that is no longer preparing, get
   * {@code conflict}.
   */
  public record ClaimRun(String taskId, String runId, String runnerId) {}

  /** A claimed run: its spec (the run, now running) and the model context it starts from. */
  public record ClaimedRun(RunSpec spec, ModelContext context) {}

  /** Everything the runner needs to drive a run: the run with its route, the task and its policy. */
  public record RunSpec(RunView run, TaskView task, PolicyView policy, boolean approvalsRequired) {}

  /**
   * Ends an active run: completed, needs_input, failed or cancelled (a run becomes running only by its
   * {@link ClaimRun}). The task follows, and task-service publishes the run's final {@code run_state}
   * and {@code done} events, numbered after the runner's last (the runner's events are stored before
   * it asks). A run that already ended answers {@code conflict}.
   */
  public record RunTransition(String taskId, String runId, RunState state, String reason) {}

  /**
   * The model context of a run: the last 30 user/assistant messages within 256 kB, with the tool
   * results whose assistant call is inside the window (orphans dropped), oldest first. Read by the
   * claim, which also marks the run's mid-run messages delivered: they are in it.
   */
  public record ModelContext(String taskId, String runId, RunState runState, List<MessageView> messages, long bytes, int droppedOrphans) {}

  /** Messages posted during the run and not yet handed to it; they are marked delivered by this reply. */
  public record PendingMessages(RunState runState, List<MessageView> messages) {}

  /**
   * One model round in one write: its usage (deltas: one round, {@code toolCalls} calls) and, unless
   * {@code text} is null, the assistant message it produced with its tool calls. Content is stored up
   * to 100 kB plus a marker; a run that is no longer active answers {@code conflict}.
   */
  public record RecordRound(String taskId, String runId, long inputTokens, long outputTokens, int toolCalls, String text,
      List<ToolCall> calls) {}

  /** What a round stored: its assistant message, or null when the round had none. */
  public record RoundRecorded(MessageView message) {}

  /**
   * A tool call starts running (after its approval, if it needed one): its Activity record is created
   * with status running.
   */
  public record ToolStarted(String taskId, String runId, ToolCall call) {}

  /**
   * A tool call ended (or never ran: denied, invalid batch, the run stopping): in one transaction its
   * Activity record gets its status and output (created if the call never started) and the tool
   * message answering {@code call.id()} is appended to the conversation. Output is stored up to
   * 20,000 characters plus a marker; {@code sourceTruncated} says the tool itself already cut it.
   */
  public record ToolFinished(String taskId, String runId, ToolCall call, String status, String output, boolean sourceTruncated) {}

  /** The Activity record of a tool call and, once it ended, the tool message that answers it. */
  public record ToolRecorded(ToolActivityView activity, MessageView message) {}

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

  /** {@code workspaceFolder}: the host folder bound as {@code /workspace} (decision 0023); null: the task's volume. */
  public record RuntimeSpec(String taskId, String ownerId, String sandboxName, String volumeName, boolean networkEnabled,
      PolicyView policy, boolean decommissioning, String workspaceFolder) {

    public RuntimeSpec(String taskId, String ownerId, String sandboxName, String volumeName, boolean networkEnabled,
        PolicyView policy, boolean decommissioning) {
      this(taskId, ownerId, sandboxName, volumeName, networkEnabled, policy, decommissioning, null);
    }
  }
}
