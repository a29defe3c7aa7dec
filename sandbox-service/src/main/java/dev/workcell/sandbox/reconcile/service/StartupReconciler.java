package dev.workcell.sandbox.reconcile.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskSubjects.KnownTasks;
import dev.workcell.contracts.task.TaskSubjects.KnownTasksReply;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.admission.service.SafeMode;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.runtime.ManagedVolume;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxInstance;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * At start, lists this deployment's managed sandboxes in one labelled query, asks task-service
 * which of their tasks still exist, stops running sandboxes of known tasks and every running home
 * (an interrupted command may still run unsupervised) and removes containers and volumes of tasks
 * that are gone. Homes and their volumes are never removed here: they have no task. Until that
 * succeeds the service stays in safe mode, retrying on a fixed interval.
 */
@ApplicationScoped
public class StartupReconciler {

  /** Docker calls in flight at once while stopping the sandboxes a crashed instance left running. */
  private static final int PARALLEL_STOPS = 8;

  /** task-service answers at most 10,000 ids per question; stay well below. */
  private static final int KNOWN_TASKS_CHUNK = 1_000;

  private final SandboxDriver driver;
  private final NatsRequester requester;
  private final SafeMode safeMode;
  private final SandboxLifecycle lifecycle;
  private final Duration retry;
  private final Duration taskServiceTimeout;
  private ScheduledExecutorService scheduler;

  public StartupReconciler(SandboxDriver driver, NatsRequester requester, SafeMode safeMode, SandboxLifecycle lifecycle,
      SandboxSettings settings) {
    this.driver = driver;
    this.requester = requester;
    this.safeMode = safeMode;
    this.lifecycle = lifecycle;
    this.retry = settings.safeModeRetry();
    this.taskServiceTimeout = settings.taskServiceTimeout();
  }

  /** What one successful pass did. */
  public record Report(int stopped, int removedContainers, int removedVolumes) {}

  void start(@Observes StartupEvent event) {
    scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("sandbox-reconcile").factory());
    scheduler.execute(this::attempt);
  }

  void stop(@Observes ShutdownEvent event) {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  private void attempt() {
    try {
      reconcileOnce();
    } catch (RuntimeException e) {
      Log.warnf("sandbox reconciliation failed, staying in safe mode and retrying in %s: %s", retry, e.getMessage());
      if (!scheduler.isShutdown()) {
        scheduler.schedule(this::attempt, retry.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  /** One pass; leaves safe mode only when every step succeeded, else enters it and rethrows. */
  public Report reconcileOnce() {
    Pass pass;
    try {
      pass = reconcile();
      safeMode.clear();
      Log.infof("sandbox reconciliation done: %d stopped, %d containers and %d volumes of deleted tasks removed",
          pass.report().stopped(), pass.report().removedContainers(), pass.report().removedVolumes());
    } catch (RuntimeException e) {
      safeMode.enter(e.getMessage());
      throw e;
    }
    // After a reboot of the host the loop mounts of bounded disks are gone (decision 0010). Not on the
    // way to readiness: each mount runs a helper container (6.5 s for two disks in a loaded CI run,
    // which kept a killed sandbox-service unready for 19 s), and a sandbox whose disk is not mounted
    // yet mounts it itself when it starts (the mounts take turns).
    driver.mountDisks(pass.kept());
    return pass.report();
  }

  /** What a pass did, and the volumes it kept (whose disks are mounted after it). */
  private record Pass(Report report, List<ManagedVolume> kept) {}

  private Pass reconcile() {
    List<SandboxInstance> containers = driver.listManaged();
    List<ManagedVolume> volumes = driver.listManagedVolumes();
    Set<String> ids = new TreeSet<>();
    containers.stream().map(SandboxInstance::taskId).filter(id -> id != null).forEach(ids::add);
    volumes.stream().map(ManagedVolume::taskId).filter(id -> id != null).forEach(ids::add);
    Set<String> known = ids.isEmpty() ? Set.of() : knownTasks(ids);
    List<SandboxInstance> toStop = new ArrayList<>();
    int removedContainers = 0;
    int removedVolumes = 0;
    for (SandboxInstance container : containers) {
      if (container.home()) {
        // Homes have no task that could be gone: stop them (a command may still run unsupervised), never remove.
        lifecycle.forget(container.key().id());
        if (container.running()) {
          toStop.add(container);
        }
        continue;
      }
      String taskId = container.taskId();
      if (taskId == null) {
        Log.warnf("managed container %s has no task label; ownership unknown, leaving it", container.name());
        continue;
      }
      lifecycle.forget(taskId);
      if (known.contains(taskId)) {
        if (container.running()) {
          toStop.add(container);
        }
      } else {
        driver.removeContainer(container);
        removedContainers++;
      }
    }
    stopAll(toStop);
    List<ManagedVolume> kept = new ArrayList<>();
    for (ManagedVolume volume : volumes) {
      if (volume.taskId() != null && !known.contains(volume.taskId())) {
        driver.removeVolume(volume);
        removedVolumes++;
      } else {
        kept.add(volume);
      }
    }
    return new Pass(new Report(toStop.size(), removedContainers, removedVolumes), kept);
  }

  /**
   * Stops the sandboxes side by side: each stop waits up to the engine's grace period for its
   * processes, and one after another they kept the service in safe mode (not ready) for seconds per
   * running sandbox after a crash (20 sandboxes: 17 s). The first failure is rethrown once all ended.
   */
  private void stopAll(List<SandboxInstance> running) {
    if (running.isEmpty()) {
      return;
    }
    List<Future<?>> stops = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(PARALLEL_STOPS, running.size()),
        Thread.ofPlatform().daemon().name("sandbox-reconcile-stop-", 0).factory())) {
      running.forEach(container -> stops.add(pool.submit(() -> driver.stop(container))));
    }
    for (Future<?> stop : stops) {
      try {
        stop.get();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while stopping sandboxes", e);
      }
    }
  }

  private Set<String> knownTasks(Set<String> ids) {
    List<String> all = List.copyOf(ids);
    Set<String> known = new HashSet<>();
    for (int from = 0; from < all.size(); from += KNOWN_TASKS_CHUNK) {
      List<String> chunk = all.subList(from, Math.min(all.size(), from + KNOWN_TASKS_CHUNK));
      KnownTasksReply reply = requester
          .request(TaskSubjects.KNOWN_TASKS, new KnownTasks(chunk),
              Actor.service(ServiceName.SANDBOX), taskServiceTimeout)
          .await().atMost(taskServiceTimeout.plusSeconds(2));
      if (reply == null || reply.known() == null) {
        throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "task-service sent no known-task list");
      }
      // Only ids we asked about count; an answer cannot make us keep what we did not list.
      reply.known().stream().filter(chunk::contains).forEach(known::add);
    }
    return known;
  }
}
