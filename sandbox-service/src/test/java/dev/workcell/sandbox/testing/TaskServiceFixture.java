package dev.workcell.sandbox.testing;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.PolicyView;
import dev.workcell.contracts.task.PreviewView;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpec;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskSubjects.KnownTasksReply;
import dev.workcell.messaging.NatsResponder;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for task-service on the module's private test NATS, serving the contract subjects
 * that sandbox-service asks: known tasks (from the tasks the tests registered, or silence to simulate
 * an unanswering task-service) and a task's runtime spec (owner, policy, network, decommissioning).
 */
@ApplicationScoped
public class TaskServiceFixture {

  /** One task as task-service would hold it. */
  public record Task(String ownerId, PolicyView policy, boolean networkEnabled, boolean decommissioning) {}

  private final Map<String, Task> tasks = new ConcurrentHashMap<>();
  private final Map<String, Long> previewGenerations = new ConcurrentHashMap<>();
  private volatile boolean silent;

  // Before the reconciler's first pass (default priority), after the NATS connection (10).
  void register(@Observes @Priority(20) StartupEvent event, NatsResponder responder) {
    responder.serve(TaskSubjects.KNOWN_TASKS, request -> silent
        ? Uni.createFrom().nothing()
        : Uni.createFrom().item(new KnownTasksReply(request.body().taskIds().stream().filter(tasks::containsKey).toList())));
    responder.serve(TaskSubjects.RUNTIME_SPEC, request -> {
      Task task = tasks.get(request.body().taskId());
      if (task == null) {
        return Uni.createFrom().failure(new WorkcellException(ErrorCode.NOT_FOUND, "task not found"));
      }
      String id = request.body().taskId();
      return Uni.createFrom().item(new RuntimeSpec(id, task.ownerId(), "workcell-task-" + id, "workcell-ws-" + id,
          task.networkEnabled(), task.policy(), task.decommissioning()));
    });
    responder.serve(TaskSubjects.PREVIEW_SET, request -> {
      var set = request.body();
      long generation = previewGenerations.merge(set.taskId(), "starting".equals(set.state()) ? 1L : 0L, Long::sum);
      return Uni.createFrom().item(new PreviewView(set.taskId(), set.state(), generation, set.hostPort(), set.command(), null));
    });
  }

  /** The preview generation task-service would hold: every "starting" report bumps it. */
  public long previewGeneration(String taskId) {
    return previewGenerations.getOrDefault(taskId, 0L);
  }

  public void add(String taskId, String ownerId) {
    tasks.put(taskId, new Task(ownerId, null, true, false));
  }

  /** Gives the task a named policy, as an admin would (null fields inherit the globals). */
  public void policy(String taskId, String memory, String cpus, Integer pids, boolean network) {
    Task task = tasks.get(taskId);
    PolicyView policy = new PolicyView("policy-" + taskId, "test policy", null, memory, cpus, pids, null, null, network,
        false, false, false, null, null, null);
    tasks.put(taskId, new Task(task.ownerId(), policy, network, task.decommissioning()));
  }

  /** Gives the task a named policy that runs {@code image}, everything else inherited. */
  public void policyImage(String taskId, String image) {
    Task task = tasks.get(taskId);
    PolicyView policy = new PolicyView("policy-" + taskId, "image policy", image, null, null, null, null, null, true,
        false, false, false, null, null, null);
    tasks.put(taskId, new Task(task.ownerId(), policy, true, task.decommissioning()));
  }

  /** Gives the task a policy with this egress allowlist (null: the open internet), everything else inherited. */
  public void egressAllowlist(String taskId, List<String> allowlist) {
    Task task = tasks.get(taskId);
    PolicyView policy = new PolicyView("policy-" + taskId, "egress policy", null, null, null, null, null, null, true,
        false, false, false, allowlist, null, null);
    tasks.put(taskId, new Task(task.ownerId(), policy, true, task.decommissioning()));
  }

  /** Gives the task {@code policy} as it is (a test builds one with the fields it needs). */
  public void policy(String taskId, PolicyView policy) {
    Task task = tasks.get(taskId);
    tasks.put(taskId, new Task(task.ownerId(), policy, policy.networkEnabled(), task.decommissioning()));
  }

  public void decommissioning(String taskId) {
    Task task = tasks.get(taskId);
    tasks.put(taskId, new Task(task.ownerId(), task.policy(), task.networkEnabled(), true));
  }

  public void remove(String taskId) {
    tasks.remove(taskId);
  }

  public void silent(boolean value) {
    silent = value;
  }
}
