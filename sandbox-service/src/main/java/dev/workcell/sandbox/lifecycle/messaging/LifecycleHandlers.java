package dev.workcell.sandbox.lifecycle.messaging;

import dev.workcell.contracts.sandbox.ListSandboxes;
import dev.workcell.contracts.sandbox.SandboxList;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.lifecycle.service.SandboxDiskStatus;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.messaging.Offload;
import dev.workcell.sandbox.messaging.SandboxAccess;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves the lifecycle subjects: ensure, status (with the volume's disk use), stop, recreate, delete, list. */
@ApplicationScoped
public class LifecycleHandlers {

  private final NatsResponder responder;
  private final SandboxLifecycle lifecycle;
  private final SandboxDiskStatus disks;

  public LifecycleHandlers(NatsResponder responder, SandboxLifecycle lifecycle, SandboxDiskStatus disks) {
    this.responder = responder;
    this.lifecycle = lifecycle;
    this.disks = disks;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.ENSURE, request -> Offload.blocking(() ->
        lifecycle.ensure(SandboxAccess.require(request.actor(), request.body()))));
    responder.serve(SandboxSubjects.RECREATE, request -> Offload.blocking(() ->
        lifecycle.recreate(SandboxAccess.require(request.actor(), request.body()))));
    responder.serve(SandboxSubjects.STATUS, request -> Offload.blocking(() -> {
      SandboxRef ref = SandboxAccess.require(request.actor(), request.body());
      return disks.withDisk(ref, lifecycle.status(ref));
    }));
    responder.serve(SandboxSubjects.STOP, request -> Offload.blocking(() ->
        lifecycle.stop(SandboxAccess.require(request.actor(), request.body()))));
    responder.serve(SandboxSubjects.DELETE, request -> Offload.blocking(() ->
        lifecycle.delete(SandboxAccess.require(request.actor(), request.body()))));
    responder.serve(SandboxSubjects.LIST, request -> Offload.blocking(() ->
        new SandboxList(lifecycle.list(SandboxAccess.listScope(request.actor(), request.body().ownerId())))));
  }
}
