package dev.workcell.task.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.account.EnsureAccount;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Subject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.RunnerApi.ClaimRun;
import dev.workcell.contracts.task.RunnerApi.RecordRound;
import dev.workcell.contracts.task.RunnerApi.ToolFinished;
import dev.workcell.contracts.task.RunnerApi.ToolRecorded;
import dev.workcell.contracts.task.RunnerApi.ToolStarted;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.contracts.task.RunnerApi.RunTransition;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import java.time.Duration;
import java.util.UUID;

/** Drives task-service the way the gateway and agent-runner do: over its NATS subjects. */
public final class WorkClient {

  public static final Actor GATEWAY = Actor.service(ServiceName.GATEWAY);
  public static final Actor RUNNER = Actor.service(ServiceName.AGENT_RUNNER);
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private final NatsRequester nats;

  public WorkClient(NatsRequester nats) {
    this.nats = nats;
  }

  /** Calls {@code subject} as {@code actor}; the reply is the subject's own record. */
  public <Q, R> R call(Subject<Q, R> subject, Q body, Actor actor) {
    return nats.request(subject, body, actor, DEADLINE).await().atMost(DEADLINE.plusSeconds(5));
  }

  /** The stable code a call fails with; fails the test when the call succeeds. */
  public <Q> ErrorCode failure(Subject<Q, ?> subject, Q body, Actor actor) {
    WorkcellException[] caught = new WorkcellException[1];
    assertThatThrownBy(() -> call(subject, body, actor))
        .isInstanceOfSatisfying(WorkcellException.class, e -> caught[0] = e);
    return caught[0].code();
  }

  /**
   * The stable code a body of free JSON fails with on {@code subject}: what a sender that does not
   * use the contract's records (a value outside an enum, say) gets back.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public ErrorCode failureOfJson(Subject<?, ?> subject, Map<String, ?> json, Actor actor) {
    Subject<Map, Object> raw = new Subject<>(subject.name(), Map.class, Object.class, subject.server(), Set.of());
    return failure(raw, (Map) json, actor);
  }

  /** The stable code a listed request fails with; fails the test when it succeeds. */
  public <Q> ErrorCode failure(Call<Q> call, Actor actor) {
    return failure(call.subject(), call.body(), actor);
  }

  /** A fresh account with a random name, so tests never share data. */
  public Actor account(Actor.Role role) {
    String name = role.wire() + "-" + UUID.randomUUID();
    Account account = call(Subjects.ACCOUNT_ENSURE, new EnsureAccount(name, role), GATEWAY);
    return new Actor(account.id(), role);
  }

  public Actor admin() {
    return account(Actor.Role.ADMIN);
  }

  public TaskCreated createTask(Actor owner, String message) {
    return call(TaskSubjects.CREATE, new CreateTask(null, message, ProviderKind.OLLAMA, "ollama", "qwen3:8b", null), owner);
  }

  public TaskCreated createTask(Actor owner) {
    return createTask(owner, "Build a small web page");
  }

  /** The runner moves a run (service actor): to running by its claim, to an end by a transition. */
  public RunView move(String taskId, String runId, String state) {
    RunState to = RunState.fromWire(state);
    RunView run = to == RunState.RUNNING
        ? call(TaskSubjects.RUNNER_CLAIM, new ClaimRun(taskId, runId, TEST_RUNNER), RUNNER).spec().run()
        : call(TaskSubjects.RUNNER_TRANSITION, new RunTransition(taskId, runId, to, "test"), RUNNER);
    assertThat(run.state()).isEqualTo(to);
    return run;
  }

  /** The runner id {@link #move} claims with. */
  public static final String TEST_RUNNER = "agent-runner-test";

  /** The runner records a round with an assistant message (usage: 1 round, the calls' count). */
  public MessageView round(String taskId, String runId, String text, List<ToolCall> calls) {
    return call(TaskSubjects.RUNNER_ROUND, new RecordRound(taskId, runId, 10, 5, calls.size(), text, calls), RUNNER).message();
  }

  /** The runner records a tool call that ran: its start, then its end with {@code output}. */
  public ToolRecorded tool(String taskId, String runId, ToolCall call, String status, String output) {
    call(TaskSubjects.RUNNER_TOOL_START, new ToolStarted(taskId, runId, call), RUNNER);
    return call(TaskSubjects.RUNNER_TOOL_FINISH, new ToolFinished(taskId, runId, call, status, output, false), RUNNER);
  }
}
