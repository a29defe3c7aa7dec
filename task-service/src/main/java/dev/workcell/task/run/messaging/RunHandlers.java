package dev.workcell.task.run.messaging;

import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.run.service.RunClaims;
import dev.workcell.task.run.service.RunLeases;
import dev.workcell.task.run.service.RunRounds;
import dev.workcell.task.run.service.RunService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * NATS subjects of runs: the owner's start, cancel and read of any run; the runner's claim, rounds,
 * end and lease heartbeats.
 */
@ApplicationScoped
public class RunHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, RunService runs, RunClaims claims, RunRounds rounds,
      RunLeases leases) {
    responder.serve(TaskSubjects.RUN_START, r -> runs.start(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUN_GET, r -> runs.get(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUN_CANCEL, r -> runs.cancel(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_CLAIM, r -> claims.claim(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_ROUND, r -> rounds.record(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_TRANSITION, r -> runs.transition(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_HEARTBEAT, r -> leases.heartbeat(r.actor(), r.body()));
  }
}
