package dev.workcell.sandbox.lifecycle.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.RetryLaterException;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.sandbox.admission.service.RuntimeAdmission;
import dev.workcell.sandbox.admission.service.SafeMode;
import dev.workcell.sandbox.celld.client.CelldConnection;
import dev.workcell.sandbox.celld.client.CelldLauncher;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.ManagedVolume;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxPolicy;
import dev.workcell.sandbox.runtime.SandboxSpec;
import dev.workcell.sandbox.task.client.TaskRuntimeSpecs;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

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
  private final BackgroundWork busy;
  private final String deployment;
  private final TaskLocks locks = new TaskLocks();
  private final Map<String, ActiveSandbox> active = new ConcurrentHashMap<>();
  /** Bounds the stops one start may make for memory (each frees at least 64m; racing starts may take the room). */
  private static final int MAX_STOPS_FOR_ROOM = 64;

  public SandboxLifecycle(SandboxDriver driver, SandboxSpecs specs, RuntimeAdmission admission, CelldLauncher celld,
      TaskRuntimeSpecs tasks, SafeMode safeMode, BackgroundWork busy, SandboxSettings settings) {
    this.driver = driver;
    this.specs = specs;
    this.admission = admission;
    this.celld = celld;
    this.tasks = tasks;
    this.safeMode = safeMode;
    this.busy = busy;
    this.deployment = settings.instance();
  }

  /** Starts the sandbox, or reuses it after re-verifying it against the policy it was created with. */
  public SandboxState ensure(SandboxRef ref) {
    safeMode.requireOff();
    SandboxKey key = SandboxKey.of(ref);
    return locks.with(key.id(), () -> state(key, start(key, false)));
  }

  /** Replaces the container with one of the current policy, on the same volume. */
  public SandboxState recreate(SandboxRef ref) {
    safeMode.requireOff();
    SandboxKey key = SandboxKey.of(ref);
    return locks.with(key.id(), () -> state(key, start(key, true)));
  }

  public SandboxState stop(SandboxRef ref) {
    safeMode.requireOff();
    SandboxKey key = SandboxKey.of(ref);
    return locks.with(key.id(), () -> {
      Optional<SandboxInstance> found = driver.find(key);
      found.ifPresent(instance -> Ownership.require(instance, key, deployment));
      deactivate(key.id(), "the sandbox was stopped");
      admission.release(key.id());
      if (found.isEmpty()) {
        return absent(key);
      }
      driver.stop(found.get());
      return state(key, found.get(), "stopped");
    });
  }

  /** Removes container and volume, after proving from their labels that both are this sandbox's. */
  public SandboxState delete(SandboxRef ref) {
    safeMode.requireOff();
    SandboxKey key = SandboxKey.of(ref);
    return locks.with(key.id(), () -> {
      Optional<SandboxInstance> container = driver.find(key);
      Optional<ManagedVolume> volume = driver.findVolume(key);
      container.ifPresent(instance -> Ownership.require(instance, key, deployment));
      volume.ifPresent(v -> Ownership.require(v, key, deployment));
      deactivate(key.id(), "the sandbox was deleted");
      container.ifPresent(driver::removeContainer);
      volume.ifPresent(driver::removeVolume);
      specs.celldSocketDir(key.container(deployment)).ifPresent(SandboxLifecycle::removeSocketDir);
      admission.release(key.id());
      Log.infof("deleted the sandbox and volume of %s", key.describe());
      return absent(key);
    });
  }

  public SandboxState status(SandboxRef ref) {
    SandboxKey key = SandboxKey.of(ref);
    Optional<SandboxInstance> found = driver.find(key);
    found.ifPresent(instance -> Ownership.require(instance, key, deployment));
    return found.map(instance -> state(key, instance, instance.state())).orElseGet(() -> absent(key));
  }

  /** Managed sandboxes of this deployment, of one owner or (null) all. */
  public List<SandboxState> list(String ownerId) {
    return driver.listManaged().stream()
        .filter(instance -> ownerId == null || ownerId.equals(instance.ownerId()))
        .filter(instance -> instance.taskId() != null)
        .map(instance -> state(instance.key(), instance, instance.state()))
        .toList();
  }

  /**
   * A running sandbox for one operation, started if needed. The fast path (sandbox active, celld
   * alive, lease held) asks Docker nothing; otherwise the sandbox is verified and (re)started.
   */
  public SandboxSession use(SandboxRef ref) {
    safeMode.requireOff();
    SandboxKey key = SandboxKey.of(ref);
    ActiveSandbox current = active.get(key.id());
    if (current != null) {
      requireSameOwner(key, current);
      if (current.celld().open() && admission.begin(key.id())) {
        return new SandboxSession(admission, key, current);
      }
    }
    return locks.with(key.id(), () -> {
      ActiveSandbox started = start(key, false);
      admission.begin(key.id());
      return new SandboxSession(admission, key, started);
    });
  }

  /**
   * {@link #use} without a thread hop on the fast path, which runs on the caller's thread (it asks
   * Docker nothing); only a sandbox that must be verified or started goes to a worker thread.
   */
  public Uni<SandboxSession> session(SandboxRef ref) {
    Optional<SandboxSession> active = useIfActive(ref);
    if (active.isPresent()) {
      return Uni.createFrom().item(active.get());
    }
    return Uni.createFrom().item(() -> use(ref)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
  }

  /** The session of a sandbox that is already active, without starting anything. */
  public Optional<SandboxSession> useIfActive(SandboxRef ref) {
    safeMode.requireOff();
    SandboxKey key = SandboxKey.of(ref);
    ActiveSandbox current = active.get(key.id());
    if (current == null || !current.celld().open()) {
      return Optional.empty();
    }
    requireSameOwner(key, current);
    return admission.begin(key.id()) ? Optional.of(new SandboxSession(admission, key, current)) : Optional.empty();
  }

  private static void requireSameOwner(SandboxKey key, ActiveSandbox current) {
    if (!Objects.equals(key.ownerId(), current.ownerId())) {
      throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "the sandbox of " + key.describe() + " belongs to another owner");
    }
  }

  /**
   * Stops a sandbox whose lease has been idle for {@code idleMs}; false when it became busy. A
   * sandbox with running background processes is busy: they are what its user is waiting for.
   */
  public boolean stopIfIdle(String id, long idleMs) {
    return stopIfIdle(id, idleMs, false);
  }

  /** As {@link #stopIfIdle(String, long)}; with {@code previewsToo} a preview does not keep it running. */
  public boolean stopIfIdle(String id, long idleMs, boolean previewsToo) {
    return locks.with(id, () -> {
      ActiveSandbox current = active.get(id);
      if (current != null && current.celld().open() && busy.hasRunningProcesses(current.celld())) {
        admission.touch(id);
        return false;
      }
      if (!admission.releaseIfIdle(id, idleMs, previewsToo)) {
        return false;
      }
      deactivate(id, "the sandbox was stopped after being idle");
      if (current != null) {
        driver.stop(current.instance());
        Log.infof("stopped idle sandbox %s", current.instance().name());
      }
      return true;
    });
  }

  /**
   * A home's lease: a free home slot, else the slot of the least recently used idle home, which is
   * stopped (volume kept). Only when every home is in use (a request in flight, a background process
   * running, or used within the eviction minimum) is the answer {@code too_many_runtimes}. Work task
   * sandboxes are never touched.
   */
  private boolean admitHome(String homeId) {
    if (admission.holds(homeId)) {
      return false;
    }
    if (admission.admitHome(homeId)) {
      return true;
    }
    for (RuntimeAdmission.IdleHome candidate : admission.idleHomesByAge()) {
      if (!candidate.id().equals(homeId) && locks.tryWith(candidate.id(), () -> evict(candidate, homeId))) {
        return true;
      }
    }
    if (admission.admitHome(homeId)) {
      return true; // a home stopped meanwhile
    }
    throw capacityRefusal(ErrorCode.TOO_MANY_RUNTIMES, "all " + admission.homeCap()
        + " home sandboxes of this instance are in use, " + admission.inUse() + "; try again shortly", true);
  }

  /** Under the idle home's lock: stops it and hands its slot to {@code newHomeId}, unless it became busy. */
  private boolean evict(RuntimeAdmission.IdleHome candidate, String newHomeId) {
    return stopIdle(candidate.id(), () -> admission.transferHome(candidate, newHomeId),
        "the home was stopped to make room for another user's");
  }

  /** Drops what this process remembers of a task (its celld connection and lease); reconciliation uses it. */
  public void forget(String id) {
    locks.with(id, () -> {
      deactivate(id, "the sandbox is being reconciled");
      admission.release(id);
      return null;
    });
  }

  private ActiveSandbox start(SandboxKey key, boolean recreate) {
    String taskId = key.id();
    Optional<SandboxInstance> found = driver.find(key);
    found.ifPresent(instance -> Ownership.require(instance, key, deployment));
    Verified reusable = recreate ? null : found.flatMap(instance -> verified(key, instance)).orElse(null);
    ActiveSandbox current = active.get(taskId);
    if (reusable != null && reusable.instance().running() && current != null && current.celld().open()
        && current.instance().containerId().equals(reusable.instance().containerId()) && admission.holds(taskId)) {
      return current;
    }
    // Whatever brings a task's container to life asks task-service first: unknown tasks, another
    // owner's tasks and tasks being deleted get none. A new container takes the current policy;
    // a home's comes from settings.
    SandboxPolicy policy = key.home() ? tasks.policyForHome() : tasks.policyFor(new SandboxRef(key.taskId(), key.ownerId()));
    if (reusable != null && networkSwitched(reusable.instance(), policy)) {
      // The network is fixed at create: whether the task's policy turns it off (a deleted policy falls
      // back to on) or has an egress allowlist (decision 0012). A switch applies when the sandbox next
      // starts, by a recreate (volume kept), not only at an explicit one; a running sandbox keeps its network.
      Log.infof("the policy of %s now puts its sandbox on another network (%s): recreating it (volume kept)",
          key.describe(), networkOf(policy));
      reusable = null;
    }
    boolean admitted = key.home() ? admitHome(taskId) : admission.admit(taskId, key.admissionOwner());
    boolean reserved = false;
    boolean touched = found.filter(SandboxInstance::running).isPresent(); // a container that may run unaccounted
    try {
      SandboxInstance instance;
      SandboxSpec spec = reusable != null ? reusable.spec() : specs.resolve(policy, key.workdir());
      reserved = reserveMemory(key, spec.memoryBytes());
      touched = true;
      if (reusable != null) {
        instance = reusable.instance();
      } else {
        if (found.isPresent()) {
          deactivate(taskId, "the sandbox is being recreated");
          driver.removeContainer(found.get());
        }
        instance = driver.create(key, spec, specs.encode(policy));
      }
      boolean celldHeld = instance.running() && current != null && current.celld().open()
          && current.instance().containerId().equals(instance.containerId());
      if (instance.running() && !celldHeld) {
        instance = stopUnsupervised(key, instance);
      }
      if (!instance.running()) {
        driver.start(instance, spec);
        instance = new SandboxInstance(instance.containerId(), instance.name(), "running", instance.labels());
      }
      CelldConnection connection = celldHeld ? current.celld() : celld.open(key.describe(), instance, spec);
      ActiveSandbox started = new ActiveSandbox(instance, spec, connection);
      active.put(taskId, started);
      return started;
    } catch (RuntimeException e) {
      if (admitted) {
        admission.release(taskId);
      } else if (reserved) {
        admission.releaseMemory(taskId); // the lease stays with its holder (a run), the memory does not
      }
      if ((admitted || reserved) && touched) {
        stopQuietly(key); // a refusal of a sandbox that does not run asks Docker nothing more (a flood of them)
      }
      throw e;
    }
  }

  /**
   * Puts the sandbox's memory limit in the ledger before it starts, stopping the least recently used
   * idle sandboxes (homes or tasks; volumes kept) until it fits; {@code runtime_capacity} when every
   * running sandbox is busy. True when this call reserved it, so a failed start gives it back.
   */
  private boolean reserveMemory(SandboxKey key, long bytes) {
    for (int stopped = 0; stopped <= MAX_STOPS_FOR_ROOM; stopped++) {
      RuntimeAdmission.Room room = admission.reserveMemory(key.id(), bytes);
      if (room != RuntimeAdmission.Room.FULL) {
        return room == RuntimeAdmission.Room.RESERVED;
      }
      if (!stopOneIdle(key.id())) {
        break;
      }
    }
    throw capacityRefusal(ErrorCode.RUNTIME_CAPACITY, admission.memoryRefusal(bytes), false);
  }

  /** A refusal whose Retry-After is when the first sandbox may be stopped for another's start, if one will be. */
  private WorkcellException capacityRefusal(ErrorCode code, String detail, boolean homesOnly) {
    OptionalLong wait = admission.secondsUntilEvictable(homesOnly);
    return wait.isPresent() ? new RetryLaterException(code, detail, wait.getAsLong()) : new WorkcellException(code, detail);
  }

  /** Stops the least recently used idle sandbox whose lock is free; false when there is none. */
  private boolean stopOneIdle(String forId) {
    for (RuntimeAdmission.IdleSandbox candidate : admission.idleByLastUse(forId)) {
      if (locks.tryWith(candidate.id(), () -> stopForRoom(candidate))) {
        return true;
      }
    }
    return false;
  }

  /** Under the idle sandbox's lock: stops it (volume kept) to make room in the memory budget. */
  private boolean stopForRoom(RuntimeAdmission.IdleSandbox candidate) {
    return stopIdle(candidate.id(), () -> admission.releaseIfUnchanged(candidate),
        "the sandbox was stopped to make room in the memory budget");
  }

  /**
   * Under the idle sandbox's lock: stops it (volume kept) once {@code claim} has taken its place in
   * admission, unless it was used meanwhile or runs background processes.
   */
  private boolean stopIdle(String id, BooleanSupplier claim, String reason) {
    ActiveSandbox victim = active.get(id);
    if (victim == null) {
      return false; // being started or stopped by someone else
    }
    if (victim.celld().open() && busy.hasRunningProcesses(victim.celld())) {
      admission.touch(id);
      return false;
    }
    if (!claim.getAsBoolean()) {
      return false;
    }
    deactivate(id, reason);
    try {
      driver.stop(victim.instance());
      Log.infof("stopped idle sandbox %s: %s", victim.instance().name(), reason);
    } catch (RuntimeException e) {
      Log.warnf("could not stop idle sandbox %s while making room: %s", victim.instance().name(), e.getMessage());
    }
    return true;
  }

  /**
   * The existing container, if it still matches the hardening profile and the policy it was
   * created with (read back from its label); empty on any drift, which then means a recreate.
   */
  private Optional<Verified> verified(SandboxKey key, SandboxInstance instance) {
    SandboxSpec spec;
    try {
      spec = specs.resolve(specs.decode(instance.labels().get(SandboxLabels.POLICY)), key.workdir());
    } catch (WorkcellException invalidLabel) {
      Log.warnf("sandbox of %s has an unusable policy label, recreating it: %s", key.describe(), invalidLabel.getMessage());
      return Optional.empty();
    }
    List<String> drift = driver.drift(key, instance, spec);
    if (!drift.isEmpty()) {
      Log.warnf("sandbox of %s drifted, recreating it (volume kept): %s", key.describe(), drift);
      return Optional.empty();
    }
    return Optional.of(new Verified(instance, spec));
  }

  private record Verified(SandboxInstance instance, SandboxSpec spec) {}

  /** Whether the current policy names another network than the sandbox was created on (none, open, egress). */
  private boolean networkSwitched(SandboxInstance instance, SandboxPolicy current) {
    SandboxPolicy created = specs.decode(instance.labels().get(SandboxLabels.POLICY));
    return !networkOf(created).equals(networkOf(current));
  }

  private static String networkOf(SandboxPolicy policy) {
    if (Boolean.FALSE.equals(policy.network())) {
      return "none";
    }
    return policy.egressAllowlist() == null ? "open" : "egress allowlist";
  }

  /**
   * A running sandbox whose celld this process does not hold lost it (killed, crashed, or never
   * ours): what its workload started may still run, unseen by a new celld. Stopping the container
   * ends every process in it before celld is started again.
   */
  private SandboxInstance stopUnsupervised(SandboxKey key, SandboxInstance instance) {
    Log.warnf("the sandbox of %s runs without its celld; restarting it so nothing its workload started outlives celld", key.describe());
    deactivate(key.id(), "celld's channel was lost");
    driver.stop(instance);
    return new SandboxInstance(instance.containerId(), instance.name(), "stopped", instance.labels());
  }

  private void deactivate(String taskId, String why) {
    ActiveSandbox gone = active.remove(taskId);
    if (gone != null) {
      gone.celld().close(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, why));
    }
  }

  /** A sandbox that failed to start while taking a fresh lease must not keep running unaccounted. */
  private void stopQuietly(SandboxKey key) {
    String taskId = key.id();
    try {
      deactivate(taskId, "the sandbox failed to start");
      driver.find(key).filter(SandboxInstance::running).ifPresent(driver::stop);
    } catch (RuntimeException e) {
      Log.warnf("could not stop the failed sandbox of %s: %s", taskId, e.getMessage());
    }
  }

  /** The sandbox's (empty) socket directory goes with it; one that is not empty is left for an operator. */
  private static void removeSocketDir(Path dir) {
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      Log.warnf("celld's socket directory %s was not removed: %s", dir, e.toString());
    }
  }

  private SandboxState state(SandboxKey key, ActiveSandbox started) {
    return new SandboxState(key.taskId(), "running", started.instance().containerId(), key.volume(deployment), started.spec().network());
  }

  private SandboxState state(SandboxKey key, SandboxInstance instance, String state) {
    SandboxPolicy policy = specs.decode(instance.labels().get(SandboxLabels.POLICY));
    return new SandboxState(key.taskId(), state, instance.containerId(), key.volume(deployment), policy.network() == null || policy.network());
  }

  private static SandboxState absent(SandboxKey key) {
    return new SandboxState(key.taskId(), "absent", null, null, false);
  }

  @PreDestroy
  void closeAll() {
    active.keySet().forEach(taskId -> deactivate(taskId, "sandbox-service is shutting down"));
  }
}
