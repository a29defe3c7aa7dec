package dev.workcell.sandbox.task.client;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.PreviewApi.SetPreview;
import dev.workcell.contracts.task.PreviewView;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.config.SandboxSettings;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Reports a task's preview to task-service, which keeps its generation: "starting" bumps it, so
 * signed preview URLs of the previous run stop working before the new process even starts. Blocking.
 */
@ApplicationScoped
public class TaskPreviews {

  private static final Actor SELF = Actor.service(ServiceName.SANDBOX);

  private final NatsRequester requester;
  private final Duration timeout;

  public TaskPreviews(NatsRequester requester, SandboxSettings settings) {
    this.requester = requester;
    this.timeout = settings.taskServiceTimeout();
  }

  /** Homes (no task) have no signed previews: nothing to report. */
  public PreviewView report(String taskId, String state, Integer hostPort, String command) {
    if (taskId == null) {
      return null;
    }
    try {
      return requester.request(TaskSubjects.PREVIEW_SET, new SetPreview(taskId, state, hostPort, command), SELF, timeout)
          .await().atMost(timeout.plusSeconds(2));
    } catch (WorkcellException e) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "cannot record the preview of " + taskId
          + " with task-service: " + e.getMessage(), e);
    }
  }
}
