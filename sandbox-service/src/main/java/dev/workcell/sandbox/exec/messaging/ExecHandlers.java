package dev.workcell.sandbox.exec.messaging;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.budget.service.SandboxBudget;
import dev.workcell.sandbox.exec.service.CommandRunner;
import dev.workcell.sandbox.messaging.Offload;
import dev.workcell.sandbox.messaging.SandboxAccess;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves exec and its cancel. */
@ApplicationScoped
public class ExecHandlers {

  private final NatsResponder responder;
  private final CommandRunner commands;
  private final SandboxBudget budget;

  public ExecHandlers(NatsResponder responder, CommandRunner commands, SandboxBudget budget) {
    this.responder = responder;
    this.commands = commands;
    this.budget = budget;
  }

  void register(@Observes StartupEvent event) {
    responder.serveHeld(SandboxSubjects.EXEC, r -> {
      SandboxRef ref = SandboxAccess.require(r.actor(), r.body().sandbox());
      // The collected output, counted from celld's reply until the NATS reply is sent.
      return budget.reply(ref, commands.run(r.body()),
          result -> SandboxBudget.chars(result.stdout()) + SandboxBudget.chars(result.stderr()));
    });
    responder.serve(SandboxSubjects.EXEC_CANCEL, r -> Offload.blocking(() ->
        commands.cancel(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().execId())));
  }
}
