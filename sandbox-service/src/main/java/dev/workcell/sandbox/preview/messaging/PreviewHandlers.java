package dev.workcell.sandbox.preview.messaging;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.messaging.Offload;
import dev.workcell.sandbox.messaging.SandboxAccess;
import dev.workcell.sandbox.preview.service.PreviewControl;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves the preview subjects. */
@ApplicationScoped
public class PreviewHandlers {

  private final NatsResponder responder;
  private final PreviewControl previews;

  public PreviewHandlers(NatsResponder responder, PreviewControl previews) {
    this.responder = responder;
    this.previews = previews;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.PREVIEW_START, r -> Offload.blocking(() ->
        previews.start(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().command())));
    responder.serve(SandboxSubjects.PREVIEW_STOP, r -> Offload.blocking(() ->
        previews.stop(SandboxAccess.require(r.actor(), r.body()))));
    responder.serve(SandboxSubjects.PREVIEW_STATUS, r -> Offload.blocking(() ->
        previews.status(SandboxAccess.require(r.actor(), r.body()))));
  }
}
