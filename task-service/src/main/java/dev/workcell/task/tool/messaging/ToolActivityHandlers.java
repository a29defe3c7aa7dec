package dev.workcell.task.tool.messaging;

import dev.workcell.contracts.task.RunnerApi.RecordToolActivity;
import dev.workcell.contracts.task.TaskApi.ListToolActivity;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.tool.service.ToolActivityService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of tool activity. */
@ApplicationScoped
public class ToolActivityHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, ToolActivityService activity) {
    responder.serve(TaskSubjects.RUNNER_TOOL, r -> activity.record(r.actor(), r.body()));
    responder.serve(TaskSubjects.TOOL_ACTIVITY, r -> activity.list(r.actor(), r.body()));
  }
}
