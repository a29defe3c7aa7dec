package dev.workcell.sandbox.messaging;

import dev.workcell.contracts.sandbox.CancelExec;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartPreview;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.budget.SandboxBudget;
import dev.workcell.sandbox.exec.CommandRunner;
import dev.workcell.sandbox.preview.PreviewControl;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves exec and the preview subjects. */
@ApplicationScoped
public class CommandHandlers {

  private final NatsResponder responder;
  private final CommandRunner commands;
  private final PreviewControl previews;
  private final SandboxBudget budget;

  public CommandHandlers(NatsResponder responder, CommandRunner commands, PreviewControl previews, SandboxBudget budget) {
    this.responder = responder;
    this.commands = commands;
    this.previews = previews;
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
    responder.serve(SandboxSubjects.PREVIEW_START, r -> Offload.blocking(() ->
        previews.start(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().command())));
    responder.serve(SandboxSubjects.PREVIEW_STOP, r -> Offload.blocking(() ->
        previews.stop(SandboxAccess.require(r.actor(), r.body()))));
    responder.serve(SandboxSubjects.PREVIEW_STATUS, r -> Offload.blocking(() ->
        previews.status(SandboxAccess.require(r.actor(), r.body()))));
  }
}
