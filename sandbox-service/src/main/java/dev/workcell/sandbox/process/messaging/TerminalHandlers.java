package dev.workcell.sandbox.process.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.messaging.SandboxAccess;
import dev.workcell.sandbox.process.service.OpenTerminals;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves the terminal subjects for terminal-service (a service actor; NATS refuses every other user). */
@ApplicationScoped
public class TerminalHandlers {

  private final NatsResponder responder;
  private final OpenTerminals terminals;

  public TerminalHandlers(NatsResponder responder, OpenTerminals terminals) {
    this.responder = responder;
    this.terminals = terminals;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.TERMINAL_OPEN, r -> {
      requireService(r.actor());
      return terminals.open(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body());
    });
    // Keystrokes go to celld's socket on the thread NATS delivered them on (the write never blocks):
    // no hop to an event loop on the echo's path (decision 0017).
    responder.serveOnDispatcher(SandboxSubjects.TERMINAL_INPUT, r -> {
      requireService(r.actor());
      return terminals.input(r.body().sessionId(), r.body().data());
    });
    responder.serve(SandboxSubjects.TERMINAL_RESIZE, r -> {
      requireService(r.actor());
      return terminals.resize(r.body().sessionId(), r.body().cols(), r.body().rows());
    });
    responder.serve(SandboxSubjects.TERMINAL_CLOSE, r -> {
      requireService(r.actor());
      return terminals.close(r.body().sessionId());
    });
  }

  /** Session ids are the only handle on a session: only a service (terminal-service) may use them. */
  private static void requireService(Actor actor) {
    if (actor.role() != Actor.Role.SERVICE) {
      throw new WorkcellException(ErrorCode.FORBIDDEN, "terminal sessions are opened by terminal-service");
    }
  }
}
