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
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
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

  public <T> T call(String subject, Object body, Class<T> reply, Actor actor) {
    return nats.request(subject, body, reply, actor, DEADLINE).await().atMost(DEADLINE.plusSeconds(5));
  }

  /** The stable code a call fails with; fails the test when the call succeeds. */
  public ErrorCode failure(String subject, Object body, Actor actor) {
    WorkcellException[] caught = new WorkcellException[1];
    assertThatThrownBy(() -> call(subject, body, Object.class, actor))
        .isInstanceOfSatisfying(WorkcellException.class, e -> caught[0] = e);
    return caught[0].code();
  }

  /** A fresh account with a random name, so tests never share data. */
  public Actor account(Actor.Role role) {
    String name = role.wire() + "-" + UUID.randomUUID();
    Account account = call(Subjects.ACCOUNT_ENSURE, new EnsureAccount(name, role), Account.class, GATEWAY);
    return new Actor(account.id(), role);
  }

  public Actor admin() {
    return account(Actor.Role.ADMIN);
  }

  public TaskCreated createTask(Actor owner, String message) {
    return call(TaskSubjects.CREATE, new CreateTask(null, message, ProviderKind.OLLAMA, "ollama", "qwen3:8b", null),
        TaskCreated.class, owner);
  }

  public TaskCreated createTask(Actor owner) {
    return createTask(owner, "Build a small web page");
  }

  /** The runner moves a run (service actor). */
  public RunView move(String taskId, String runId, String state) {
    RunView run = call(TaskSubjects.RUNNER_TRANSITION, new RunTransition(taskId, runId, RunState.fromWire(state), "test"), RunView.class,
        RUNNER);
    assertThat(run.state()).isEqualTo(RunState.fromWire(state));
    return run;
  }
}
