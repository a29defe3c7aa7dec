package dev.workcell.task.run.service;

import dev.workcell.task.config.TaskSettings;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;

/**
 * At start, runs left active by a crash are found by their leases, not by the restart itself: a run
 * whose runner still renews its lease keeps running (a restart of task-service alone loses nothing),
 * one whose lease expired is failed ({@code runner_lost}) with its preview state cleared and its
 * sandbox stopped, and a queued run no runner took yet stays queued (the work queue survives
 * restarts) unless its request is gone. See {@link RunSweeper}, which repeats this while running.
 */
@ApplicationScoped
public class RunRecovery {

  private final RunSweeper sweeper;
  private final TaskSettings settings;

  public RunRecovery(RunSweeper sweeper, TaskSettings settings) {
    this.sweeper = sweeper;
    this.settings = settings;
  }

  void atStart(@Observes StartupEvent event) {
    if (!settings.recoverAtStart()) {
      return;
    }
    RunSweeper.Swept swept = recover().await().atMost(Duration.ofSeconds(60));
    Log.infof("start-up recovery: %d runs had lost their runner, %d queued requests were lost", swept.runnerLost(),
        swept.requestLost());
  }

  public Uni<RunSweeper.Swept> recover() {
    return sweeper.sweep();
  }
}
