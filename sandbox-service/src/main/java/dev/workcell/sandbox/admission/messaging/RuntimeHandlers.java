package dev.workcell.sandbox.admission.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.HoldRuntime;
import dev.workcell.contracts.sandbox.ReleaseRuntime;
import dev.workcell.contracts.sandbox.RuntimeUsageQuery;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.admission.service.RuntimeHolds;
import dev.workcell.sandbox.messaging.SandboxAccess;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves runtime holds (services only: a user could otherwise pin slots) and caps-and-use. */
@ApplicationScoped
public class RuntimeHandlers {

  private final NatsResponder responder;
  private final RuntimeHolds holds;

  public RuntimeHandlers(NatsResponder responder, RuntimeHolds holds) {
    this.responder = responder;
    this.holds = holds;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.LEASE_HOLD, r -> {
      requireService(r.actor());
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return holds.hold(r.body());
    });
    responder.serve(SandboxSubjects.LEASE_RELEASE, r -> {
      requireService(r.actor());
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return Uni.createFrom().item(holds.release(r.body()));
    });
    responder.serve(SandboxSubjects.RUNTIME_USAGE, r ->
        Uni.createFrom().item(holds.usage(r.actor(), SandboxAccess.listScope(r.actor(), r.body().ownerId()))));
  }

  private static void requireService(Actor actor) {
    if (actor.role() != Actor.Role.SERVICE) {
      throw new WorkcellException(ErrorCode.FORBIDDEN, "only services may hold runtime slots");
    }
  }
}
