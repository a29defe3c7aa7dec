package dev.workcell.agent.run.service;

import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.agent.tool.service.ToolInvocation;
import dev.workcell.agent.tool.service.WorkspaceTools;
import dev.workcell.contracts.task.ApprovalState;
import dev.workcell.contracts.task.ApprovalView;
import dev.workcell.contracts.task.RunnerApi.ApprovalRef;
import dev.workcell.contracts.task.RunnerApi.RequestApproval;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.messaging.NatsRequester;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * "Auto Review": run_command, delete_file and move_file ask task-service before they run. It
 * answers allowed at once when approvals are off or an always-allow rule matches (for run_command,
 * scoped to the program, the command's first token); otherwise the call waits for the owner's
 * decision, read again until it is decided or expires (task-service turns it expired on read).
 */
@ApplicationScoped
public class ApprovalGate {

  /** The tools with side effects that pause for review. */
  public static final Set<String> GATED = Set.of(WorkspaceTools.RUN_COMMAND, WorkspaceTools.DELETE_FILE, WorkspaceTools.MOVE_FILE);

  private final NatsRequester requester;
  private final Duration timeout;
  private final Duration poll;

  public ApprovalGate(NatsRequester requester, AgentSettings settings) {
    this.requester = requester;
    this.timeout = settings.taskServiceTimeout();
    this.poll = settings.approvalPoll();
  }

  public static boolean gated(String tool) {
    return GATED.contains(tool);
  }

  /** Asks for the call and waits while it is pending; {@code stillActive} ends the wait when the run was cancelled. */
  public ApprovalView decide(RunRef run, ToolInvocation call, Runnable onPending, BooleanSupplier stillActive) {
    return decide(run, call, onPending, stillActive, ApprovalGate::sleep);
  }

  /**
   * As above; {@code pause} waits between reads and may return early (task-service pushes a decided
   * approval or a cancel to the runner), so the poll interval is only the fallback.
   */
  public ApprovalView decide(RunRef run, ToolInvocation call, Runnable onPending, BooleanSupplier stillActive,
      Consumer<Duration> pause) {
    ApprovalView approval = request(TaskSubjects.RUNNER_APPROVAL_REQUEST, new RequestApproval(run.taskId(), run.runId(), call.call().id(),
        call.name(), program(call), summary(call)));
    boolean announced = false;
    while (approval.state() == ApprovalState.PENDING) {
      if (!announced) {
        onPending.run();
        announced = true;
      }
      pause.accept(poll);
      if (!stillActive.getAsBoolean()) {
        return approval;
      }
      approval = request(TaskSubjects.RUNNER_APPROVAL_GET, new ApprovalRef(run.taskId(), approval.id()));
    }
    return approval;
  }

  /** The first token of a command: what an always-allow rule for run_command covers. */
  static String program(ToolInvocation call) {
    if (!WorkspaceTools.RUN_COMMAND.equals(call.name())) {
      return null;
    }
    String command = call.text("command");
    if (command == null) {
      return null;
    }
    String[] tokens = command.strip().split("\\s+", 2);
    return tokens.length == 0 || tokens[0].isEmpty() ? null : tokens[0];
  }

  private static String summary(ToolInvocation call) {
    return switch (call.name()) {
      case WorkspaceTools.RUN_COMMAND -> call.text("command");
      case WorkspaceTools.DELETE_FILE -> "delete " + call.text("path") + (call.flag("recursive") ? " (recursive)" : "");
      case WorkspaceTools.MOVE_FILE -> "move " + call.text("from") + " to " + call.text("to");
      default -> call.name();
    };
  }

  private <Q> ApprovalView request(Subject<Q, ApprovalView> subject, Q body) {
    return requester.request(subject, body, TaskServiceClient.RUNNER, timeout)
        .await().atMost(timeout.plusSeconds(1));
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
