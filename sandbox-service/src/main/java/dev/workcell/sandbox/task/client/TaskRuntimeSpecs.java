package dev.workcell.sandbox.task.client;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.EgressAllowlist;
import dev.workcell.contracts.task.PolicyView;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpec;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpecRequest;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * Asks task-service (the owner of tasks and policies) for a task's runtime before a container is
 * created or started: unknown tasks, another owner's tasks and tasks being deleted get none.
 */
@ApplicationScoped
public class TaskRuntimeSpecs {

  private static final Actor SELF = Actor.service(ServiceName.SANDBOX);

  private final NatsRequester requester;
  private final Duration timeout;
  private final SandboxSettings.Home home;
  private final List<String> homeAllowlist;

  public TaskRuntimeSpecs(NatsRequester requester, SandboxSettings settings) {
    this.requester = requester;
    this.timeout = settings.taskServiceTimeout();
    this.home = settings.home();
    this.homeAllowlist = settings.home().egressAllowlist().map(EgressAllowlist::parse).orElse(null);
  }

  /** A home's policy comes from settings (workcell.sandbox.home.*): it has no task in task-service. */
  public SandboxPolicy policyForHome() {
    return new SandboxPolicy(home.image().orElse(null), null, null, null, home.network(), homeAllowlist);
  }

  /** The policy a new container of the task is created with. Blocking. */
  public SandboxPolicy policyFor(SandboxRef ref) {
    RuntimeSpec spec;
    try {
      spec = requester.request(TaskSubjects.RUNTIME_SPEC, new RuntimeSpecRequest(ref.taskId()), SELF, timeout)
          .await().atMost(timeout.plusSeconds(2));
    } catch (WorkcellException e) {
      if (e.code() == ErrorCode.NOT_FOUND) {
        throw new WorkcellException(ErrorCode.NOT_FOUND, "task-service knows no task " + ref.taskId());
      }
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "cannot read the runtime policy of " + ref.taskId()
          + " from task-service: " + e.getMessage(), e);
    }
    if (spec == null || !ref.taskId().equals(spec.taskId())) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "task-service answered for another task than " + ref.taskId());
    }
    if (!ref.ownerId().equals(spec.ownerId())) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no task " + ref.taskId() + " of this owner");
    }
    if (spec.decommissioning()) {
      throw new WorkcellException(ErrorCode.TASK_DECOMMISSIONING, "task " + ref.taskId() + " is being deleted");
    }
    PolicyView policy = spec.policy();
    if (policy == null) {
      return new SandboxPolicy(null, null, null, null, spec.networkEnabled(), null, spec.workspaceFolder());
    }
    return new SandboxPolicy(policy.image(), policy.memoryLimit(), policy.cpuLimit(),
        policy.pidsLimit() == null ? null : policy.pidsLimit().longValue(), spec.networkEnabled(), policy.egressAllowlist(),
        spec.workspaceFolder());
  }
}
