package dev.workcell.sandbox.lifecycle;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.sandbox.admission.RuntimeAdmission;
import dev.workcell.sandbox.celld.CelldConnection;
import dev.workcell.sandbox.celld.CelldLauncher;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.reconcile.SafeMode;
import dev.workcell.sandbox.runtime.ManagedVolume;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxNames;
import dev.workcell.sandbox.runtime.SandboxPolicy;
import dev.workcell.sandbox.runtime.SandboxSpec;
import dev.workcell.sandbox.runtime.SandboxSpecs;
import io.quarkus.logging.Log;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rules of a sandbox's life: start on demand under admission, re-verify before reuse and
 * recreate on drift (volume kept), stop, delete only what the labels prove is the task's. Every
 * method blocks (Docker calls); changes to one task are serialised.
 */
@ApplicationScoped
public class SandboxLifecycle {

  private final SandboxDriver driver;
  private final SandboxSpecs specs;
  private final RuntimeAdmission admission;
  private final CelldLauncher celld;
  private final TaskRuntimeSpecs tasks;
  private final SafeMode safeMode;
  private final String deployment;
  private final TaskLocks locks = new TaskLocks();
  private final Map<String, ActiveSandbox> active = new ConcurrentHashMap<>();

  public SandboxLifecycle(SandboxDriver driver, SandboxSpecs specs, RuntimeAdmission admission, CelldLauncher celld,
      TaskRuntimeSpecs tasks, SafeMode safeMode, SandboxSettings settings) {
    this.driver = driver;
    this.specs = specs;
    this.admission = admission;
    this.celld = celld;
    this.tasks = tasks;
    this.safeMode = safeMode;
    this.deployment = settings.instance();
  }

  /** Starts the task's sandbox, or reuses it after re-verifying it against the policy it was created with. */
  public SandboxState ensure(SandboxRef ref) {
    safeMode.requireOff();
    return locks.with(ref.taskId(), () -> state(start(ref, false)));
  }

  /** Replaces the container with one of the task's current policy, on the same workspace volume. */
  public SandboxState recreate(SandboxRef ref) {
    safeMode.requireOff();
    return locks.with(ref.taskId(), () -> state(start(ref, true)));
  }

  public SandboxState stop(SandboxRef ref) {
    safeMode.requireOff();
    return locks.with(ref.taskId(), () -> {
      Optional<SandboxInstance> found = driver.find(ref.taskId());
      found.ifPresent(instance -> Ownership.require(instance, ref, deployment));
      deactivate(ref.taskId(), "the sandbox was stopped");
      admission.release(ref.taskId());
      if (found.isEmpty()) {
        return absent(ref.taskId());
      }
      driver.stop(found.get());
      return state(found.get(), "stopped");
    });
  }

  /** Removes container and volume, after proving from their labels that both are this task's. */
  public SandboxState delete(SandboxRef ref) {
    safeMode.requireOff();
    return locks.with(ref.taskId(), () -> {
      Optional<SandboxInstance> container = driver.find(ref.taskId());
      Optional<ManagedVolume> volume = driver.findVolume(ref.taskId());
      container.ifPresent(instance -> Ownership.require(instance, ref, deployment));
      volume.ifPresent(v -> Ownership.require(v, ref, deployment));
      deactivate(ref.taskId(), "the sandbox was deleted");
      container.ifPresent(driver::removeContainer);
      volume.ifPresent(driver::removeVolume);
      admission.release(ref.taskId());
      Log.infof("deleted the sandbox and workspace of task %s", ref.taskId());
      return absent(ref.taskId());
    });
  }

  public SandboxState status(SandboxRef ref) {
    Optional<SandboxInstance> found = driver.find(ref.taskId());
    found.ifPresent(instance -> Ownership.require(instance, ref, deployment));
    return found.map(instance -> state(instance, instance.state())).orElseGet(() -> absent(ref.taskId()));
  }

  /** Managed sandboxes of this deployment, of one owner or (null) all. */
  public List<SandboxState> list(String ownerId) {
    return driver.listManaged().stream()
        .filter(instance -> ownerId == null || ownerId.equals(instance.ownerId()))
        .filter(instance -> instance.taskId() != null)
        .map(instance -> state(instance, instance.state()))
        .toList();
  }

  /**
   * A running sandbox for one operation, started if needed. The fast path (sandbox active, celld
   * alive, lease held) asks Docker nothing; otherwise the sandbox is verified and (re)started.
   */
  public SandboxSession use(SandboxRef ref) {
    safeMode.requireOff();
    ActiveSandbox current = active.get(ref.taskId());
    if (current != null) {
      if (!ref.ownerId().equals(current.ownerId())) {
        throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "the sandbox of " + ref.taskId() + " belongs to another owner");
      }
      if (current.celld().open() && admission.begin(ref.taskId())) {
        return new SandboxSession(admission, ref.taskId(), current);
      }
    }
    return locks.with(ref.taskId(), () -> {
      ActiveSandbox started = start(ref, false);
      admission.begin(ref.taskId());
      return new SandboxSession(admission, ref.taskId(), started);
    });
  }

  /** The session of a sandbox that is already active, without starting anything. */
  public Optional<SandboxSession> useIfActive(SandboxRef ref) {
    safeMode.requireOff();
    ActiveSandbox current = active.get(ref.taskId());
    if (current == null || !current.celld().open()) {
      return Optional.empty();
    }
    if (!ref.ownerId().equals(current.ownerId())) {
      throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "the sandbox of " + ref.taskId() + " belongs to another owner");
    }
    return admission.begin(ref.taskId()) ? Optional.of(new SandboxSession(admission, ref.taskId(), current)) : Optional.empty();
  }

  /** Stops a sandbox whose lease has been idle for {@code idleMs}; false when it became busy. */
  public boolean stopIfIdle(String taskId, long idleMs) {
    return locks.with(taskId, () -> {
      if (!admission.releaseIfIdle(taskId, idleMs)) {
        return false;
      }
      ActiveSandbox current = active.get(taskId);
      deactivate(taskId, "the sandbox was stopped after being idle");
      if (current != null) {
        driver.stop(current.instance());
        Log.infof("stopped idle sandbox of task %s", taskId);
      }
      return true;
    });
  }

  /** Drops what this process remembers of a task (its celld connection and lease); reconciliation uses it. */
  public void forget(String taskId) {
    locks.with(taskId, () -> {
      deactivate(taskId, "the sandbox is being reconciled");
      admission.release(taskId);
      return null;
    });
  }

  private ActiveSandbox start(SandboxRef ref, boolean recreate) {
    String taskId = SandboxNames.requireTaskId(ref.taskId());
    Optional<SandboxInstance> found = driver.find(taskId);
    found.ifPresent(instance -> Ownership.require(instance, ref, deployment));
    Verified reusable = recreate ? null : found.flatMap(this::verified).orElse(null);
    ActiveSandbox current = active.get(taskId);
    if (reusable != null && reusable.instance().running() && current != null && current.celld().open()
        && current.instance().containerId().equals(reusable.instance().containerId()) && admission.holds(taskId)) {
      return current;
    }
    // Whatever brings a container to life asks task-service first: unknown tasks, another owner's
    // tasks and tasks being deleted get none. A new container takes the task's current policy.
    SandboxPolicy policy = tasks.policyFor(ref);
    boolean admitted = admission.admit(taskId, ref.ownerId());
    try {
      SandboxInstance instance;
      SandboxSpec spec;
      if (reusable != null) {
        instance = reusable.instance();
        spec = reusable.spec();
      } else {
        if (found.isPresent()) {
          deactivate(taskId, "the sandbox is being recreated");
          driver.removeContainer(found.get());
        }
        spec = specs.resolve(policy);
        instance = driver.create(ref, spec, specs.encode(policy));
      }
      if (!instance.running()) {
        driver.start(instance);
        instance = new SandboxInstance(instance.containerId(), instance.name(), "running", instance.labels());
      }
      CelldConnection connection = current != null && current.celld().open()
          && current.instance().containerId().equals(instance.containerId()) ? current.celld() : celld.open(taskId, instance);
      ActiveSandbox started = new ActiveSandbox(instance, spec, connection);
      active.put(taskId, started);
      return started;
    } catch (RuntimeException e) {
      if (admitted) {
        admission.release(taskId);
        stopQuietly(taskId);
      }
      throw e;
    }
  }

  /**
   * The existing container, if it still matches the hardening profile and the policy it was
   * created with (read back from its label); empty on any drift, which then means a recreate.
   */
  private Optional<Verified> verified(SandboxInstance instance) {
    SandboxSpec spec;
    try {
      spec = specs.resolve(specs.decode(instance.labels().get(SandboxLabels.POLICY)));
    } catch (WorkcellException invalidLabel) {
      Log.warnf("sandbox of task %s has an unusable policy label, recreating it: %s", instance.taskId(), invalidLabel.getMessage());
      return Optional.empty();
    }
    List<String> drift = driver.drift(instance, spec);
    if (!drift.isEmpty()) {
      Log.warnf("sandbox of task %s drifted, recreating it (workspace kept): %s", instance.taskId(), drift);
      return Optional.empty();
    }
    return Optional.of(new Verified(instance, spec));
  }

  private record Verified(SandboxInstance instance, SandboxSpec spec) {}

  private void deactivate(String taskId, String why) {
    ActiveSandbox gone = active.remove(taskId);
    if (gone != null) {
      gone.celld().close(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, why));
    }
  }

  /** A sandbox that failed to start while taking a fresh lease must not keep running unaccounted. */
  private void stopQuietly(String taskId) {
    try {
      deactivate(taskId, "the sandbox failed to start");
      driver.find(taskId).filter(SandboxInstance::running).ifPresent(driver::stop);
    } catch (RuntimeException e) {
      Log.warnf("could not stop the failed sandbox of %s: %s", taskId, e.getMessage());
    }
  }

  private SandboxState state(ActiveSandbox started) {
    return new SandboxState(started.instance().taskId(), "running", started.instance().containerId(),
        SandboxNames.volume(started.instance().taskId()), started.spec().network());
  }

  private SandboxState state(SandboxInstance instance, String state) {
    SandboxPolicy policy = specs.decode(instance.labels().get(SandboxLabels.POLICY));
    return new SandboxState(instance.taskId(), state, instance.containerId(), SandboxNames.volume(instance.taskId()),
        policy.network() == null || policy.network());
  }

  private static SandboxState absent(String taskId) {
    return new SandboxState(taskId, "absent", null, null, false);
  }

  @PreDestroy
  void closeAll() {
    active.keySet().forEach(taskId -> deactivate(taskId, "sandbox-service is shutting down"));
  }
}
