package dev.workcell.sandbox.ports.messaging;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.messaging.SandboxAccess;
import dev.workcell.sandbox.ports.service.ListeningPorts;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves {@code workcell.sandbox.ports.list} (Open Terminal's GET /ports, through the gateway). */
@ApplicationScoped
public class PortHandlers {

  private final NatsResponder responder;
  private final ListeningPorts ports;

  public PortHandlers(NatsResponder responder, ListeningPorts ports) {
    this.responder = responder;
    this.ports = ports;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.PORTS_LIST, r -> ports.list(SandboxAccess.require(r.actor(), r.body().sandbox())));
  }
}
