package dev.workcell.task.preview.messaging;

import dev.workcell.contracts.task.PreviewApi.SetPreview;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.preview.service.PreviewService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of preview state. */
@ApplicationScoped
public class PreviewHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, PreviewService previews) {
    responder.serve(TaskSubjects.PREVIEW_GET, r -> previews.get(r.actor(), r.body()));
    responder.serve(TaskSubjects.PREVIEW_SET, r -> previews.set(r.actor(), r.body()));
  }
}
