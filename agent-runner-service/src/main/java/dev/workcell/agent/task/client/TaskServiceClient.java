package dev.workcell.agent.task.client;

import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.agent.config.AgentSettings;
import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.task.RunControlApi.Heartbeat;
import dev.workcell.contracts.task.RunControlApi.LeaseState;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.RunnerApi.ClaimRun;
import dev.workcell.contracts.task.RunnerApi.ClaimedRun;
import dev.workcell.contracts.task.RunnerApi.PendingMessages;
import dev.workcell.contracts.task.RunnerApi.RecordRound;
import dev.workcell.contracts.task.RunnerApi.RoundRecorded;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.RunnerApi.RunTransition;
import dev.workcell.contracts.task.RunnerApi.ToolFinished;
import dev.workcell.contracts.task.RunnerApi.ToolRecorded;
import dev.workcell.contracts.task.RunnerApi.ToolStarted;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.messaging.NatsRequester;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * The runner's side of task-service's runner subjects, blocking: runs are driven on virtual
 * threads, where waiting on a reply costs nothing. Errors arrive as coded {@code WorkcellException}s.
 */
@ApplicationScoped
public class TaskServiceClient {

  public static final Actor RUNNER = Actor.service(ServiceName.AGENT_RUNNER);

  private final NatsRequester requester;
  private final Duration timeout;

  public TaskServiceClient(NatsRequester requester, AgentSettings settings) {
    this.requester = requester;
    this.timeout = settings.taskServiceTimeout();
  }

  /** Takes a queued run: running with this runner's lease, its spec and model context, in one request. */
  public ClaimedRun claim(RunRef run, String runnerId) {
    return call(TaskSubjects.RUNNER_CLAIM, new ClaimRun(run.taskId(), run.runId(), runnerId));
  }

  /** Ends the run; task-service publishes its final events. */
  public RunView transition(RunRef run, RunState state, String reason) {
    return call(TaskSubjects.RUNNER_TRANSITION, new RunTransition(run.taskId(), run.runId(), state, reason));
  }

  /** A round's usage and, unless {@code text} is null, its assistant message. */
  public RoundRecorded round(RunRef run, long input, long output, int toolCalls, String text, List<ToolCall> calls) {
    return call(TaskSubjects.RUNNER_ROUND, new RecordRound(run.taskId(), run.runId(), input, output, toolCalls, text, calls));
  }

  public PendingMessages pending(RunRef run) {
    return call(TaskSubjects.RUNNER_PENDING, run);
  }

  public ToolRecorded toolStarted(RunRef run, ToolCall call) {
    return call(TaskSubjects.RUNNER_TOOL_START, new ToolStarted(run.taskId(), run.runId(), call));
  }

  public ToolRecorded toolFinished(RunRef run, ToolCall call, String status, String output, boolean truncated) {
    return call(TaskSubjects.RUNNER_TOOL_FINISH, new ToolFinished(run.taskId(), run.runId(), call, status, output, truncated));
  }

  /**
   * Renews this runner's lease on the run; {@code held} false means stop driving it. The answer's
   * run state is also how the runner learns whether the run ended in task-service.
   */
  public LeaseState heartbeat(RunRef run, String runnerId) {
    return call(TaskSubjects.RUNNER_HEARTBEAT, new Heartbeat(run.taskId(), run.runId(), runnerId));
  }

  /** The run's state in task-service, read with a renewal of this runner's lease (only the runner driving it asks). */
  public RunState state(RunRef run, String runnerId) {
    return heartbeat(run, runnerId).runState();
  }

  private <Q, R> R call(Subject<Q, R> subject, Q body) {
    return requester.request(subject, body, RUNNER, timeout).await().atMost(timeout.plusSeconds(1));
  }
}
