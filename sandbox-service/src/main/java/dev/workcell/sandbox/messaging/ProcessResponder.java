package dev.workcell.sandbox.messaging;

import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.ListProcesses;
import dev.workcell.contracts.sandbox.PollProcess;
import dev.workcell.contracts.sandbox.ProcessInput;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.process.BackgroundProcesses;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves the background-process subjects; waits hold no thread (see {@link BackgroundProcesses}). */
@ApplicationScoped
public class ProcessResponder {

  private final NatsResponder responder;
  private final BackgroundProcesses processes;

  public ProcessResponder(NatsResponder responder, BackgroundProcesses processes) {
    this.responder = responder;
    this.processes = processes;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.PROCESS_START, StartProcess.class, r -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return processes.start(r.body());
    });
    responder.serve(SandboxSubjects.PROCESS_STATUS, PollProcess.class, r -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return processes.status(r.body());
    });
    responder.serve(SandboxSubjects.PROCESS_INPUT, ProcessInput.class, r -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return processes.input(r.body());
    });
    responder.serve(SandboxSubjects.PROCESS_KILL, KillProcess.class, r -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return processes.kill(r.body());
    });
    responder.serve(SandboxSubjects.PROCESS_LIST, ListProcesses.class, r ->
        processes.list(SandboxAccess.require(r.actor(), r.body().sandbox())));
  }
}
