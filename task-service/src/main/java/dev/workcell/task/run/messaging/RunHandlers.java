package dev.workcell.task.run.messaging;

import dev.workcell.contracts.task.RunControlApi.Heartbeat;
import dev.workcell.contracts.task.RunnerApi.AddUsage;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.RunnerApi.RunTransition;
import dev.workcell.contracts.task.TaskApi.GetRun;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.run.service.RunLeases;
import dev.workcell.task.run.service.RunService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of runs: the owner's start, cancel and read of any run, the runner's transitions, usage and lease heartbeats. */
@ApplicationScoped
public class RunHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, RunService runs, RunLeases leases) {
    responder.serve(TaskSubjects.RUN_START, r -> runs.start(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUN_GET, r -> runs.get(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUN_CANCEL, r -> runs.cancel(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_RUN, r -> runs.spec(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_TRANSITION, r -> runs.transition(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_USAGE, r -> runs.usage(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_HEARTBEAT, r -> leases.heartbeat(r.actor(), r.body()));
  }
}
