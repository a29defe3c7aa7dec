package dev.workcell.sandbox.lifecycle.service;

import dev.workcell.sandbox.admission.service.RuntimeAdmission;
import dev.workcell.sandbox.config.SandboxSettings;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

/**
 * Frees slots, volumes kept: stops Work task sandboxes left without a holder for the release grace,
 * those kept only by a preview after WORK_RUNTIME_IDLE_TIMEOUT_MS without activity, and homes idle for
 * workcell.sandbox.home.idle-timeout (each 0: never). A run's hold is never cut short here; it lapses
 * only when its runner stops renewing it.
 */
@ApplicationScoped
public class IdleSandboxStopper {

  private final SandboxLifecycle lifecycle;
  private final RuntimeAdmission admission;
  private final long graceMs;
  private final long taskIdleMs;
  private final long homeIdleMs;
  private ScheduledExecutorService scheduler;

  public IdleSandboxStopper(SandboxLifecycle lifecycle, RuntimeAdmission admission, SandboxSettings settings) {
    this.lifecycle = lifecycle;
    this.admission = admission;
    this.graceMs = settings.releaseGrace().toMillis();
    this.taskIdleMs = settings.runtimeIdleTimeoutMs();
    this.homeIdleMs = settings.home().idleTimeout().toMillis();
  }

  void start(@Observes StartupEvent event) {
    long shortest = LongStream.of(graceMs, taskIdleMs, homeIdleMs).filter(ms -> ms > 0).min().orElse(0);
    if (shortest == 0) {
      return;
    }
    long period = Math.clamp(shortest / 4, 250, 30_000);
    scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("sandbox-idle-stop").factory());
    scheduler.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
  }

  void stop(@Observes ShutdownEvent event) {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  void sweep() {
    if (graceMs > 0) {
      admission.idleTasks(graceMs).forEach(id -> stop(id, graceMs, false));
    }
    if (taskIdleMs > 0) {
      admission.idleTasks(taskIdleMs, true).forEach(id -> stop(id, taskIdleMs, true));
    }
    if (homeIdleMs > 0) {
      admission.idleHomes(homeIdleMs).forEach(id -> stop(id, homeIdleMs, false));
    }
  }

  private void stop(String id, long idleMs, boolean previewsToo) {
    try {
      lifecycle.stopIfIdle(id, idleMs, previewsToo);
    } catch (RuntimeException e) {
      Log.warnf("idle stop of %s failed: %s", id, e.getMessage());
    }
  }
}
