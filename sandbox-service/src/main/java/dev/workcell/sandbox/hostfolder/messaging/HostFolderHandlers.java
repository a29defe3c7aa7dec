package dev.workcell.sandbox.hostfolder.messaging;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.HostFolder;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.hostfolder.service.HostFolderGuard;
import dev.workcell.sandbox.messaging.Offload;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Checks the host folder a new task asks for (decision 0023). Only task-service may ask (the subject's
 * permissions), with the caller's actor and the role it has just read from the database.
 */
@ApplicationScoped
public class HostFolderHandlers {

  private final NatsResponder responder;
  private final HostFolderGuard guard;

  public HostFolderHandlers(NatsResponder responder, HostFolderGuard guard) {
    this.responder = responder;
    this.guard = guard;
  }

  void register(@Observes StartupEvent event) {
    // Resolving links reads the file system: off the event loop.
    responder.serve(SandboxSubjects.HOST_FOLDER_CHECK, r ->
        Offload.blocking(() -> new HostFolder(guard.require(r.actor(), r.body().folder()).toString())));
  }
}
