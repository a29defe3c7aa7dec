package dev.workcell.agent.run.taskservice;

import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.agent.run.config.AgentSettings;
import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunControlApi.Heartbeat;
import dev.workcell.contracts.task.RunControlApi.LeaseState;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.RunnerApi.AddUsage;
import dev.workcell.contracts.task.RunnerApi.AppendMessage;
import dev.workcell.contracts.task.RunnerApi.ModelContext;
import dev.workcell.contracts.task.RunnerApi.PendingMessages;
import dev.workcell.contracts.task.RunnerApi.RecordToolActivity;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.RunnerApi.RunSpec;
import dev.workcell.contracts.task.RunnerApi.RunTransition;
import dev.workcell.contracts.task.ToolActivityView;
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

  public RunSpec spec(RunRef run) {
    return call(TaskSubjects.RUNNER_RUN, run);
  }

  public RunView transition(RunRef run, RunState state, String reason) {
    return call(TaskSubjects.RUNNER_TRANSITION, new RunTransition(run.taskId(), run.runId(), state, reason));
  }

  public RunView usage(RunRef run, long input, long output, int rounds, int toolCalls) {
    return call(TaskSubjects.RUNNER_USAGE, new AddUsage(run.taskId(), run.runId(), input, output, rounds, toolCalls));
  }

  public ModelContext context(RunRef run) {
    return call(TaskSubjects.RUNNER_CONTEXT, run);
  }

  public PendingMessages pending(RunRef run) {
    return call(TaskSubjects.RUNNER_PENDING, run);
  }

  public MessageView append(RunRef run, MessageRole role, String content, String toolCallId, List<ToolCall> toolCalls) {
    return call(TaskSubjects.RUNNER_APPEND, new AppendMessage(run.taskId(), run.runId(), role, content, toolCallId, toolCalls));
  }

  public ToolActivityView activity(RunRef run, ToolCall call, String status, String output, boolean truncated) {
    return call(TaskSubjects.RUNNER_TOOL, new RecordToolActivity(run.taskId(), run.runId(), call.id(), call.name(),
        call.arguments(), status, output, truncated));
  }

  /** Claims or renews this runner's lease on the run; {@code held} false means stop driving it. */
  public LeaseState heartbeat(RunRef run, String runnerId) {
    return call(TaskSubjects.RUNNER_HEARTBEAT, new Heartbeat(run.taskId(), run.runId(), runnerId));
  }

  private <Q, R> R call(Subject<Q, R> subject, Q body) {
    return requester.request(subject, body, RUNNER, timeout).await().atMost(timeout.plusSeconds(1));
  }
}
