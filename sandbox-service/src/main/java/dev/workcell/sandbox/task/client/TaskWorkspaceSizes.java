package dev.workcell.sandbox.task.client;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpec;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpecRequest;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.config.DiskSizes;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.WorkspaceSizes;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * A task's workspace size is its policy's {@code workspaceSize}, else WORK_WORKSPACE_SIZE; a home's is
 * {@code home.workspace-size}. Asked once per volume, when it is created (the size of an existing disk
 * never changes), so the extra question to task-service costs nothing on later starts.
 */
@ApplicationScoped
public class TaskWorkspaceSizes implements WorkspaceSizes {

  private static final Actor SELF = Actor.service(ServiceName.SANDBOX);

  private final NatsRequester requester;
  private final SandboxSettings settings;

  public TaskWorkspaceSizes(NatsRequester requester, SandboxSettings settings) {
    this.requester = requester;
    this.settings = settings;
  }

  @Override
  public long bytes(SandboxKey key) {
    if (key.home()) {
      return DiskSizes.bytes(settings.home().workspaceSize()).orElseThrow();
    }
    Duration timeout = settings.taskServiceTimeout();
    RuntimeSpec spec;
    try {
      spec = requester.request(TaskSubjects.RUNTIME_SPEC, new RuntimeSpecRequest(key.taskId()), SELF, timeout)
          .await().atMost(timeout.plusSeconds(2));
    } catch (WorkcellException e) {
      throw new WorkcellException(e.code() == ErrorCode.NOT_FOUND ? ErrorCode.NOT_FOUND : ErrorCode.SERVICE_UNAVAILABLE,
          "cannot read the workspace size of " + key.taskId() + " from task-service: " + e.getMessage(), e);
    }
    String size = spec == null || spec.policy() == null ? null : spec.policy().workspaceSize();
    if (size == null || size.isBlank()) {
      return DiskSizes.bytes(settings.workspaceSize()).orElseThrow();
    }
    return DiskSizes.bytes(size).orElseThrow(() -> new WorkcellException(ErrorCode.INVALID_REQUEST,
        "policy workspaceSize " + size + " must be a size from 16m to 16t, such as 5g or 5Gi"));
  }
}
