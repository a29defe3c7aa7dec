package dev.workcell.task.tool.messaging;

import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.tool.service.ToolActivityService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of tool activity: the runner's write at a call's start and at its end, the owner's read. */
@ApplicationScoped
public class ToolActivityHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, ToolActivityService activity) {
    responder.serve(TaskSubjects.RUNNER_TOOL_START, r -> activity.started(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_TOOL_FINISH, r -> activity.finished(r.actor(), r.body()));
    responder.serve(TaskSubjects.TOOL_ACTIVITY, r -> activity.list(r.actor(), r.body()));
  }
}
