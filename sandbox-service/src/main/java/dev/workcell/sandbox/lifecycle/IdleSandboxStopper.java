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

/**
 * Stops Work task sandboxes idle for WORK_RUNTIME_IDLE_TIMEOUT_MS and homes idle for
 * workcell.sandbox.home.idle-timeout, freeing their slots (0: never). Volumes are kept.
 */
@ApplicationScoped
public class IdleSandboxStopper {

  private final SandboxLifecycle lifecycle;
  private final RuntimeAdmission admission;
  private final long taskIdleMs;
  private final long homeIdleMs;
  private ScheduledExecutorService scheduler;

  public IdleSandboxStopper(SandboxLifecycle lifecycle, RuntimeAdmission admission, SandboxSettings settings) {
    this.lifecycle = lifecycle;
    this.admission = admission;
    this.taskIdleMs = settings.runtimeIdleTimeoutMs();
    this.homeIdleMs = settings.home().idleTimeout().toMillis();
  }

  void start(@Observes StartupEvent event) {
    long shortest = Math.min(taskIdleMs > 0 ? taskIdleMs : Long.MAX_VALUE, homeIdleMs > 0 ? homeIdleMs : Long.MAX_VALUE);
    if (shortest == Long.MAX_VALUE) {
      return;
    }
    long period = Math.clamp(shortest / 4, 1_000, 30_000);
    scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("sandbox-idle-stop").factory());
    scheduler.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
  }

  void stop(@Observes ShutdownEvent event) {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  void sweep() {
    if (taskIdleMs > 0) {
      admission.idleTasks(taskIdleMs).forEach(id -> stop(id, taskIdleMs));
    }
    if (homeIdleMs > 0) {
      admission.idleHomes(homeIdleMs).forEach(id -> stop(id, homeIdleMs));
    }
  }

  private void stop(String id, long idleMs) {
    try {
      lifecycle.stopIfIdle(id, idleMs);
    } catch (RuntimeException e) {
      Log.warnf("idle stop of %s failed: %s", id, e.getMessage());
    }
  }
}
