package dev.workcell.agent.run.taskservice;

import dev.workcell.agent.run.config.AgentSettings;
import dev.workcell.agent.run.config.RunnerSubjects;
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
  private final RunnerSubjects subjects;
  private final Duration timeout;

  public TaskServiceClient(NatsRequester requester, RunnerSubjects subjects, AgentSettings settings) {
    this.requester = requester;
    this.subjects = subjects;
    this.timeout = settings.taskServiceTimeout();
  }

  public RunSpec spec(RunRef run) {
    return call(subjects.runSpec(), run, RunSpec.class);
  }

  public RunView transition(RunRef run, RunState state, String reason) {
    return call(subjects.transition(), new RunTransition(run.taskId(), run.runId(), state, reason), RunView.class);
  }

  public RunView usage(RunRef run, long input, long output, int rounds, int toolCalls) {
    return call(subjects.usage(), new AddUsage(run.taskId(), run.runId(), input, output, rounds, toolCalls), RunView.class);
  }

  public ModelContext context(RunRef run) {
    return call(subjects.context(), run, ModelContext.class);
  }

  public PendingMessages pending(RunRef run) {
    return call(subjects.pending(), run, PendingMessages.class);
  }

  public MessageView append(RunRef run, MessageRole role, String content, String toolCallId, List<ToolCall> toolCalls) {
    return call(subjects.append(), new AppendMessage(run.taskId(), run.runId(), role, content, toolCallId, toolCalls),
        MessageView.class);
  }

  public ToolActivityView activity(RunRef run, ToolCall call, String status, String output, boolean truncated) {
    return call(subjects.toolActivity(), new RecordToolActivity(run.taskId(), run.runId(), call.id(), call.name(),
        call.arguments(), status, output, truncated), ToolActivityView.class);
  }

  /** Claims or renews this runner's lease on the run; {@code held} false means stop driving it. */
  public LeaseState heartbeat(RunRef run, String runnerId) {
    return call(subjects.heartbeat(), new Heartbeat(run.taskId(), run.runId(), runnerId), LeaseState.class);
  }

  private <T> T call(String subject, Object body, Class<T> reply) {
    return requester.request(subject, body, reply, RUNNER, timeout).await().atMost(timeout.plusSeconds(1));
  }
}
