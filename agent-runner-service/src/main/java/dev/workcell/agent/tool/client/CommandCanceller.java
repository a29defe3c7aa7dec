package dev.workcell.agent.tool.client;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.contracts.sandbox.CancelExec;
import dev.workcell.contracts.sandbox.ExecCancelled;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.NatsRequester;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Stops a command in flight through sandbox-service ({@code EXEC_CANCEL}: TERM, KILL after the
 * grace, every leftover process killed); the command's own EXEC request then fails cancelled.
 */
@ApplicationScoped
public class CommandCanceller {

  private final NatsRequester requester;
  private final AgentSettings settings;

  public CommandCanceller(NatsRequester requester, AgentSettings settings) {
    this.requester = requester;
    this.settings = settings;
  }

  /** Asks once; a failure is logged (the command's own timeout still bounds it). */
  public void cancel(SandboxRef sandbox, String execId) {
    try {
      ExecCancelled reply = requester.request(SandboxSubjects.EXEC_CANCEL, new CancelExec(sandbox, execId),
          TaskServiceClient.RUNNER, settings.sandboxTimeout()).await().atMost(settings.sandboxTimeout().plusSeconds(1));
      Log.infof("command %s of task %s: cancel %s", execId, sandbox.taskId(), reply.cancelled() ? "stopped it" : "found it ended");
    } catch (RuntimeException e) {
      Log.warnf("command %s of task %s not cancelled: %s", execId, sandbox.taskId(), e.getMessage());
    }
  }
}
