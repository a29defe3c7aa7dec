package dev.workcell.agent.run.service;

import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.contracts.task.RunControlApi.LeaseState;
import dev.workcell.contracts.task.RunState;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Renews this runner's lease on every run it drives (and the runs' sandbox slots), every
 * lease-heartbeat interval. If the runner dies the beats stop and task-service fails the run
 * ({@code runner_lost}); if task-service answers
 * that the lease is gone (the run ended, or was failed while this runner was unreachable), the run
 * stops here without recording anything more. A beat that fails (task-service away) changes nothing.
 */
@ApplicationScoped
public class LeaseKeeper {

  private final DrivenRuns runs;
  private final TaskServiceClient tasks;
  private final AgentSettings settings;
  private final RuntimeSlots slots;
  private volatile boolean stopping;

  public LeaseKeeper(DrivenRuns runs, TaskServiceClient tasks, AgentSettings settings, RuntimeSlots slots) {
    this.runs = runs;
    this.slots = slots;
    this.tasks = tasks;
    this.settings = settings;
  }

  void start(@Observes StartupEvent event) {
    Thread.ofVirtual().name("lease-keeper").start(this::loop);
  }

  void stop(@Observes ShutdownEvent event) {
    stopping = true;
  }

  /** One beat for one run: renews the lease its claim took, or stops the run when it is gone. */
  public void beat(RunSignals signals) {
    if (signals.ended() != null) {
      return;
    }
    try {
      LeaseState lease = tasks.heartbeat(signals.ref(), runs.runnerId());
      if (!lease.held()) {
        RunState state = lease.runState();
        Log.infof("run %s: lease not held (run %s); stopping", signals.ref().runId(), state.wire());
        signals.end(state.active() ? RunState.FAILED : state, state.active()
            ? "another runner holds the run" : "the run was " + state.wire() + " in task-service");
      }
    } catch (RuntimeException e) {
      Log.debugf("run %s: heartbeat failed: %s", signals.ref().runId(), e.getMessage());
    }
  }

  private void loop() {
    while (!stopping) {
      try {
        Thread.sleep(settings.leaseHeartbeat());
      } catch (InterruptedException e) {
        return;
      }
      for (RunSignals signals : runs.all()) {
        beat(signals);
      }
      slots.renewAll(); // the runs' sandbox slots lapse the same way if this runner dies
    }
  }
}
