package dev.workcell.sandbox.lifecycle;

import dev.workcell.sandbox.admission.RuntimeAdmission;
import dev.workcell.sandbox.config.SandboxSettings;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Stops sandboxes idle for WORK_RUNTIME_IDLE_TIMEOUT_MS, freeing their runtime slots (0: never). */
@ApplicationScoped
public class IdleSandboxStopper {

  private final SandboxLifecycle lifecycle;
  private final RuntimeAdmission admission;
  private final long idleMs;
  private ScheduledExecutorService scheduler;

  public IdleSandboxStopper(SandboxLifecycle lifecycle, RuntimeAdmission admission, SandboxSettings settings) {
    this.lifecycle = lifecycle;
    this.admission = admission;
    this.idleMs = settings.runtimeIdleTimeoutMs();
  }

  void start(@Observes StartupEvent event) {
    if (idleMs <= 0) {
      return;
    }
    long period = Math.clamp(idleMs / 4, 1_000, 30_000);
    scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("sandbox-idle-stop").factory());
    scheduler.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
  }

  void stop(@Observes ShutdownEvent event) {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  void sweep() {
    for (String taskId : admission.idle(idleMs)) {
      try {
        lifecycle.stopIfIdle(taskId, idleMs);
      } catch (RuntimeException e) {
        Log.warnf("idle stop of task %s failed: %s", taskId, e.getMessage());
      }
    }
  }
}
