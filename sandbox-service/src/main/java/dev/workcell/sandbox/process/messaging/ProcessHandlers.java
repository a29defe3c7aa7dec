package dev.workcell.sandbox.process.messaging;

import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.ListProcesses;
import dev.workcell.contracts.sandbox.PollProcess;
import dev.workcell.contracts.sandbox.ProcessInput;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.budget.service.SandboxBudget;
import dev.workcell.sandbox.messaging.SandboxAccess;
import dev.workcell.sandbox.process.service.BackgroundProcesses;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves the background-process subjects; waits hold no thread (see {@link BackgroundProcesses}). */
@ApplicationScoped
public class ProcessHandlers {

  private final NatsResponder responder;
  private final BackgroundProcesses processes;
  private final SandboxBudget budget;

  public ProcessHandlers(NatsResponder responder, BackgroundProcesses processes, SandboxBudget budget) {
    this.responder = responder;
    this.processes = processes;
    this.budget = budget;
  }

  void register(@Observes StartupEvent event) {
    // The output entries of a reply, counted from celld's reply until the NATS reply is sent.
    responder.serveHeld(SandboxSubjects.PROCESS_START, r -> {
      SandboxRef ref = SandboxAccess.require(r.actor(), r.body().sandbox());
      return budget.reply(ref, processes.start(r.body()), ProcessHandlers::outputChars);
    });
    responder.serveHeld(SandboxSubjects.PROCESS_STATUS, r -> {
      SandboxRef ref = SandboxAccess.require(r.actor(), r.body().sandbox());
      return budget.reply(ref, processes.status(r.body()), ProcessHandlers::outputChars);
    });
    responder.serve(SandboxSubjects.PROCESS_INPUT, r -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return processes.input(r.body());
    });
    responder.serve(SandboxSubjects.PROCESS_KILL, r -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return processes.kill(r.body());
    });
    responder.serve(SandboxSubjects.PROCESS_LIST, r ->
        processes.list(SandboxAccess.require(r.actor(), r.body().sandbox())));
  }

  private static long outputChars(ProcessView view) {
    long chars = 0;
    if (view.output() != null) {
      for (ProcessView.OutputEntry entry : view.output()) {
        chars += SandboxBudget.chars(entry.data());
      }
    }
    return chars;
  }
}
