package dev.workcell.sandbox.admission.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.sandbox.config.SandboxSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runtime leases: a sandbox holds one while it runs. Two pools: Work task sandboxes count against
 * the per-owner and global caps (WORK_MAX_ACTIVE_RUNTIMES_*); Open Terminal homes count only against
 * their own cap ({@code workcell.sandbox.home.max-active}), so terminal users never starve Work tasks
 * and the reverse. Operations on a sandbox that already holds its lease ride on it and never count twice.
 *
 * <p>A Work lease is kept by its holders: operations in flight, named holds (a run, renewed while it
 * runs and lapsing if its holder dies; a verified preview) — and is free to release once none is
 * left (the idle stopper stops the sandbox after a grace). A run that finds no slot may wait in line;
 * a released slot goes to the first waiter that fits the caps.
 */
@ApplicationScoped
public class RuntimeAdmission {

  private final int globalCap;
  private final int perUserCap;
  private final int homeCap;
  private final LongSupplier clock;
  private final int maxWaiting;
  /** How long a sandbox must have been quiet before it may be stopped for another's start (0: at once). */
  private final long evictionMinIdleMs;
  private final MemoryBudget memoryBudget;
  private final Map<String, Lease> leases = new HashMap<>();
  private final Deque<Waiter> waiting = new ArrayDeque<>();

  /** The hold a verified preview keeps until it is stopped (or WORK_RUNTIME_IDLE_TIMEOUT_MS passes). */
  public static final String PREVIEW = "preview";

  @Inject
  public RuntimeAdmission(SandboxSettings settings, MemoryBudget memoryBudget) {
    this(settings.maxActiveRuntimesGlobal(), settings.maxActiveRuntimesPerUser(), settings.home().maxActive(),
        settings.maxWaitingRuns(), System::currentTimeMillis, memoryBudget, settings.evictionMinIdle().toMillis());
  }

  RuntimeAdmission(int globalCap, int perUserCap, int homeCap, LongSupplier clock) {
    this(globalCap, perUserCap, homeCap, 16, clock);
  }

  RuntimeAdmission(int globalCap, int perUserCap, int homeCap, int maxWaiting, LongSupplier clock) {
    this(globalCap, perUserCap, homeCap, maxWaiting, clock, new MemoryBudget(Long.MAX_VALUE));
  }

  RuntimeAdmission(int globalCap, int perUserCap, int homeCap, int maxWaiting, LongSupplier clock, MemoryBudget memoryBudget) {
    this(globalCap, perUserCap, homeCap, maxWaiting, clock, memoryBudget, 0);
  }

  RuntimeAdmission(int globalCap, int perUserCap, int homeCap, int maxWaiting, LongSupplier clock, MemoryBudget memoryBudget,
      long evictionMinIdleMs) {
    this.evictionMinIdleMs = evictionMinIdleMs;
    this.memoryBudget = memoryBudget;
    this.globalCap = globalCap;
    this.perUserCap = perUserCap;
    this.homeCap = homeCap;
    this.maxWaiting = maxWaiting;
    this.clock = clock;
  }

  /** An idle home that may be stopped to make room, as seen at {@code version} (any later use changes it). */
  public record IdleHome(String id, long version) {}

  /** Takes the task's lease, or confirms it holds one; {@code too_many_runtimes} when a Work cap is full. */
  public synchronized boolean admit(String taskId, String ownerId) {
    if (leases.containsKey(taskId)) {
      return false;
    }
    String refusal = refusal(ownerId);
    if (refusal != null) {
      throw new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES, refusal);
    }
    leases.put(taskId, new Lease(ownerId, false, clock.getAsLong()));
    return true;
  }

  /** Why a new Work lease of {@code ownerId} cannot be taken now, or null when it can. */
  private String refusal(String ownerId) {
    long work = leases.values().stream().filter(lease -> !lease.home).count();
    if (work >= globalCap) {
      return "all " + globalCap + " sandbox slots of this instance are in use; wait for one to stop";
    }
    long mine = ownedBy(ownerId);
    if (mine >= perUserCap) {
      return "this owner already runs " + mine + " sandboxes (limit " + perUserCap + "); stop one first";
    }
    return null;
  }

  private long ownedBy(String ownerId) {
    return leases.values().stream().filter(lease -> !lease.home && lease.ownerId.equals(ownerId)).count();
  }

  /**
   * Takes or renews {@code holder}'s hold on the task's slot until {@code ttlMs} from now. Without a
   * free slot it waits in line up to {@code waitMs} (0: refuses at once); the future then fails
   * {@code too_many_runtimes}. Completes true once held.
   */
  public CompletableFuture<Boolean> hold(String taskId, String ownerId, String holder, long ttlMs, long waitMs) {
    Waiter waiter;
    synchronized (this) {
      Lease lease = leases.get(taskId);
      if (lease == null) {
        String refusal = refusal(ownerId);
        if (refusal == null) {
          lease = new Lease(ownerId, false, clock.getAsLong());
          leases.put(taskId, lease);
        } else if (waitMs <= 0) {
          return CompletableFuture.failedFuture(new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES, refusal));
        } else if (waiting.size() >= maxWaiting) {
          return CompletableFuture.failedFuture(new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES,
              refusal + "; " + waiting.size() + " runs already wait for a slot, so this one cannot be queued"));
        } else {
          waiter = new Waiter(taskId, ownerId, holder, ttlMs, new CompletableFuture<>());
          waiting.add(waiter);
          CompletableFuture.delayedExecutor(waitMs, TimeUnit.MILLISECONDS).execute(() -> expire(waiter, waitMs));
          return waiter.granted;
        }
      }
      lease.holds.put(holder, expiry(ttlMs));
      lease.used();
    }
    return CompletableFuture.completedFuture(true);
  }

  private long expiry(long ttlMs) {
    return ttlMs <= 0 ? Long.MAX_VALUE : clock.getAsLong() + ttlMs;
  }

  private void expire(Waiter waiter, long waitMs) {
    String refusal;
    synchronized (this) {
      if (!waiting.remove(waiter)) {
        return; // granted or released meanwhile
      }
      refusal = refusal(waiter.ownerId);
    }
    waiter.granted.completeExceptionally(new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES,
        "no sandbox slot became free within " + waitMs / 1000 + " s: " + (refusal == null ? "the slots were taken meanwhile" : refusal)));
  }

  /** Ends {@code holder}'s hold, or its wait in line (the waiting request then fails {@code cancelled}). */
  public void releaseHold(String taskId, String holder) {
    List<Waiter> cancelled = new ArrayList<>();
    synchronized (this) {
      waiting.removeIf(w -> w.taskId.equals(taskId) && w.holder.equals(holder) && cancelled.add(w));
      Lease lease = leases.get(taskId);
      if (lease != null && lease.holds.remove(holder) != null) {
        lease.used(); // the release grace counts from here
      }
    }
    cancelled.forEach(w -> w.granted.completeExceptionally(
        new WorkcellException(ErrorCode.CANCELLED, "the wait for a sandbox slot was released")));
  }

  /**
   * Who holds the task's sandbox now by name — a run's id, {@link #PREVIEW} — and the runs waiting in
   * line for it; operations in flight are not named. Git writes are refused while any is there.
   */
  public synchronized List<String> holders(String taskId) {
    List<String> names = new ArrayList<>();
    Lease lease = leases.get(taskId);
    if (lease != null) {
      long now = clock.getAsLong();
      lease.holds.forEach((holder, until) -> {
        if (until > now) {
          names.add(holder);
        }
      });
    }
    waiting.stream().filter(w -> w.taskId.equals(taskId)).forEach(w -> names.add(w.holder));
    return names;
  }

  /** A snapshot of Work caps and use, with {@code ownerId}'s own. */
  public synchronized Usage usage(String ownerId) {
    return new Usage(globalCap, active(), perUserCap, ownerId == null ? 0 : (int) ownedBy(ownerId), waiting.size(), maxWaiting);
  }

  /** Work caps and current use. */
  public record Usage(int globalCap, int globalActive, int perUserCap, int userActive, int waiting, int maxWaiting) {}

  /** Takes a home's lease when a home slot is free; false when the home pool is full (nothing taken). */
  public synchronized boolean admitHome(String homeId) {
    if (homes() >= homeCap) {
      return false;
    }
    leases.put(homeId, new Lease(homeId, true, clock.getAsLong()));
    return true;
  }

  /**
   * Homes with nothing in flight and quiet for the eviction minimum, least recently active first: the
   * candidates to make room for a new home.
   */
  public synchronized List<IdleHome> idleHomesByAge() {
    long now = clock.getAsLong();
    return leases.entrySet().stream()
        .filter(e -> e.getValue().home && e.getValue().evictable(now))
        .sorted(Comparator.comparingLong(e -> e.getValue().lastActivity))
        .map(e -> new IdleHome(e.getKey(), e.getValue().version)).toList();
  }

  /**
   * Moves an idle home's slot to {@code newHomeId} in one step, only if nothing used the idle home
   * since {@code seen} (so a request that slipped in is never cut off); false otherwise.
   */
  public synchronized boolean transferHome(IdleHome seen, String newHomeId) {
    Lease lease = leases.get(seen.id());
    if (lease == null || !lease.home || !lease.evictable(clock.getAsLong()) || lease.version != seen.version()
        || leases.containsKey(newHomeId)) {
      return false;
    }
    leases.remove(seen.id());
    leases.put(newHomeId, new Lease(newHomeId, true, clock.getAsLong()));
    return true;
  }

  public int homeCap() {
    return homeCap;
  }

  public void release(String id) {
    List<Waiter> granted;
    synchronized (this) {
      leases.remove(id);
      granted = grant();
    }
    granted.forEach(w -> w.granted.complete(true));
  }

  /** Under the lock: hands free slots to waiters in line order, skipping those whose owner is still at the cap. */
  private List<Waiter> grant() {
    List<Waiter> granted = new ArrayList<>();
    for (var it = waiting.iterator(); it.hasNext(); ) {
      Waiter waiter = it.next();
      if (leases.containsKey(waiter.taskId)) {
        leases.get(waiter.taskId).holds.put(waiter.holder, expiry(waiter.ttlMs));
      } else if (refusal(waiter.ownerId) == null) {
        Lease lease = new Lease(waiter.ownerId, false, clock.getAsLong());
        lease.holds.put(waiter.holder, expiry(waiter.ttlMs));
        leases.put(waiter.taskId, lease);
      } else {
        continue;
      }
      it.remove();
      granted.add(waiter);
    }
    return granted;
  }

  /** Starts an operation on a sandbox that holds its lease; false when it holds none. */
  public synchronized boolean begin(String id) {
    Lease lease = leases.get(id);
    if (lease == null) {
      return false;
    }
    lease.inflight++;
    lease.used();
    return true;
  }

  public synchronized void end(String id) {
    Lease lease = leases.get(id);
    if (lease != null && lease.inflight > 0) {
      lease.inflight--;
      lease.used();
    }
  }

  /** Records activity without an operation (a sandbox kept busy by its background processes). */
  public synchronized void touch(String id) {
    Lease lease = leases.get(id);
    if (lease != null) {
      lease.used();
      lease.runsProcesses = true;
    }
  }

  /** Work task sandboxes with no holder, nothing in flight and no activity for {@code idleMs}. */
  public synchronized List<String> idleTasks(long idleMs) {
    return idle(false, idleMs, false);
  }

  /** As {@link #idleTasks(long)}; with {@code previewsToo} a sandbox held only by its preview counts as idle too. */
  public synchronized List<String> idleTasks(long idleMs, boolean previewsToo) {
    return idle(false, idleMs, previewsToo);
  }

  /** Homes with nothing in flight and no activity for {@code idleMs}. */
  public synchronized List<String> idleHomes(long idleMs) {
    return idle(true, idleMs, false);
  }

  private List<String> idle(boolean home, long idleMs, boolean previewsToo) {
    long now = clock.getAsLong();
    return leases.entrySet().stream()
        .filter(e -> e.getValue().home == home && e.getValue().idle(now, idleMs, previewsToo))
        .map(Map.Entry::getKey).toList();
  }

  /** Releases the lease only if the sandbox is still idle, so a stop never races a starting operation or a holder. */
  public boolean releaseIfIdle(String id, long idleMs) {
    return releaseIfIdle(id, idleMs, false);
  }

  /** As {@link #releaseIfIdle(String, long)}; with {@code previewsToo} a preview's hold does not keep it. */
  public boolean releaseIfIdle(String id, long idleMs, boolean previewsToo) {
    List<Waiter> granted;
    synchronized (this) {
      Lease lease = leases.get(id);
      if (lease == null || !lease.idle(clock.getAsLong(), idleMs, previewsToo)) {
        return false;
      }
      leases.remove(id);
      granted = grant();
    }
    granted.forEach(w -> w.granted.complete(true));
    return true;
  }

  public synchronized boolean holds(String id) {
    return leases.containsKey(id);
  }

  /** What {@link #reserveMemory} found. */
  public enum Room { RESERVED, ALREADY_RESERVED, FULL }

  /** A running sandbox that may be stopped to make room, as seen at {@code version} (any later use changes it). */
  public record IdleSandbox(String id, long memoryBytes, long version) {}

  /**
   * Puts a sandbox's memory limit in the ledger before it is started (its lease must be taken):
   * {@code RESERVED} when it fits beside the limits of the other running sandboxes, homes included;
   * {@code ALREADY_RESERVED} when the ledger has it with that limit; {@code FULL} when it does not fit
   * (nothing reserved: stop an idle sandbox and ask again). Atomic, so two racing starts never both
   * overshoot. A limit above the whole budget is refused with {@code sandbox_too_large}: no stop helps.
   */
  public Room reserveMemory(String id, long bytes) {
    long budget = memoryBudget.bytes(); // outside the lock: the first call asks the engine
    if (bytes > budget) {
      throw new WorkcellException(ErrorCode.SANDBOX_TOO_LARGE, "this sandbox's memory limit (" + mib(bytes)
          + ") is more than this instance's whole sandbox memory budget (" + mib(budget)
          + "), so it can never start: give it a smaller memory limit or raise workcell.sandbox.memory-budget / memory-share");
    }
    synchronized (this) {
      Lease lease = leases.get(id);
      if (lease == null) {
        throw new IllegalStateException("memory is reserved only under a lease: " + id);
      }
      if (lease.memoryBytes == bytes) {
        return Room.ALREADY_RESERVED;
      }
      if (reservedMemory() - lease.memoryBytes + bytes > budget) {
        return Room.FULL;
      }
      lease.memoryBytes = bytes;
      return Room.RESERVED;
    }
  }

  /** Takes a sandbox out of the ledger while it keeps its lease (a start that failed under a run's hold). */
  public synchronized void releaseMemory(String id) {
    Lease lease = leases.get(id);
    if (lease != null) {
      lease.memoryBytes = 0;
    }
  }

  /** Why a start found no room, for its refusal. */
  public synchronized String memoryRefusal(long bytes) {
    long running = memoryHolders();
    return "starting this sandbox (" + mib(bytes) + ") would take the memory limits of running sandboxes past this instance's budget ("
        + mib(reservedMemory()) + " of " + mib(memoryBudget.known()) + " in use by " + running
        + (running == 1 ? " sandbox" : " sandboxes") + ", " + inUse() + "); try again when one stops";
  }

  /** What keeps a running sandbox from being stopped for another's start, for refusals. */
  public String inUse() {
    String recent = evictionMinIdleMs > 0 ? " or used in the last " + Math.ceilDiv(evictionMinIdleMs, 1000) + " s" : "";
    return "each busy (a run, an operation, a preview or a background process)" + recent;
  }

  /**
   * For a refusal's Retry-After: seconds until the first running sandbox with nothing in flight, no
   * hold and no background process has been quiet for the eviction minimum (homes only, or every
   * sandbox in the memory ledger), at least 1; empty when every one is busy (the code's usual wait).
   */
  public synchronized OptionalLong secondsUntilEvictable(boolean homesOnly) {
    long now = clock.getAsLong();
    return leases.values().stream()
        .filter(lease -> homesOnly ? lease.home : lease.memoryBytes > 0)
        .filter(lease -> !lease.runsProcesses && lease.idle(now, 0, false))
        .mapToLong(lease -> Math.max(1, Math.ceilDiv(lease.lastActivity + evictionMinIdleMs - now, 1000)))
        .min();
  }

  /**
   * Running sandboxes, homes and tasks alike, that may be stopped to make room: nothing in flight, no
   * hold (a run's, a verified preview's) and quiet for the eviction minimum, least recently used first.
   */
  public synchronized List<IdleSandbox> idleByLastUse(String except) {
    long now = clock.getAsLong();
    return leases.entrySet().stream()
        .filter(e -> !e.getKey().equals(except) && e.getValue().memoryBytes > 0 && e.getValue().idle(now, evictionMinIdleMs, false))
        .sorted(Comparator.comparingLong(e -> e.getValue().lastActivity))
        .map(e -> new IdleSandbox(e.getKey(), e.getValue().memoryBytes, e.getValue().version)).toList();
  }

  /** Releases an idle sandbox's lease (and its memory) only if nothing used it since {@code seen} and it is still idle. */
  public boolean releaseIfUnchanged(IdleSandbox seen) {
    List<Waiter> granted;
    synchronized (this) {
      Lease lease = leases.get(seen.id());
      if (lease == null || lease.version != seen.version() || !lease.idle(clock.getAsLong(), evictionMinIdleMs, false)) {
        return false;
      }
      leases.remove(seen.id());
      granted = grant();
    }
    granted.forEach(w -> w.granted.complete(true));
    return true;
  }

  /** The memory ledger: budget (0 until the engine was asked), reserved, idle, and {@code ownerId}'s own task sandboxes. */
  public synchronized RuntimeUsage.Memory memory(String ownerId) {
    long now = clock.getAsLong();
    List<RuntimeUsage.SandboxMemory> mine = new ArrayList<>();
    long idle = 0;
    for (Map.Entry<String, Lease> e : leases.entrySet()) {
      Lease lease = e.getValue();
      if (lease.memoryBytes == 0) {
        continue;
      }
      boolean isIdle = lease.idle(now, 0, false);
      idle += isIdle ? lease.memoryBytes : 0;
      if (!lease.home && lease.ownerId.equals(ownerId)) {
        mine.add(new RuntimeUsage.SandboxMemory(e.getKey(), lease.memoryBytes, isIdle));
      }
    }
    return new RuntimeUsage.Memory(memoryBudget.known(), reservedMemory(), idle, (int) memoryHolders(), mine);
  }

  private long reservedMemory() {
    return leases.values().stream().mapToLong(lease -> lease.memoryBytes).sum();
  }

  private long memoryHolders() {
    return leases.values().stream().filter(lease -> lease.memoryBytes > 0).count();
  }

  private static String mib(long bytes) {
    return (bytes >> 20) + " MiB";
  }

  /** Running Work task sandboxes (what WORK_MAX_ACTIVE_RUNTIMES_GLOBAL caps). */
  public synchronized int active() {
    return leases.size() - homes();
  }

  /** Running homes. */
  public synchronized int activeHomes() {
    return homes();
  }

  private int homes() {
    return (int) leases.values().stream().filter(lease -> lease.home).count();
  }

  /** A run waiting in line for a slot. */
  private record Waiter(String taskId, String ownerId, String holder, long ttlMs, CompletableFuture<Boolean> granted) {}

  private final class Lease {
    final String ownerId;
    final boolean home;
    /** Named holders and when each hold lapses (Long.MAX_VALUE: until released). */
    final Map<String, Long> holds = new HashMap<>();
    int inflight;
    /** The sandbox's memory limit while it runs or is being started (the memory ledger); 0 otherwise. */
    long memoryBytes;
    long lastActivity;
    /** Bumped by every use, so an eviction can tell "still the idle home I checked" from "used meanwhile". */
    long version;
    /** Background processes kept it running when last checked: its quiet time says nothing of when it may stop. */
    boolean runsProcesses;

    Lease(String ownerId, boolean home, long now) {
      this.ownerId = ownerId;
      this.home = home;
      this.lastActivity = now;
    }

    void used() {
      lastActivity = clock.getAsLong();
      version++;
      runsProcesses = false;
    }

    /** A home nothing is in flight on, quiet for the eviction minimum (a running process is the stopper's to check). */
    boolean evictable(long now) {
      return inflight == 0 && now - lastActivity >= evictionMinIdleMs;
    }

    /** Nothing in flight, no live hold (but a preview's, when {@code previewsToo}) and quiet for {@code idleMs}. */
    boolean idle(long now, long idleMs, boolean previewsToo) {
      holds.values().removeIf(until -> until <= now);
      boolean unheld = holds.isEmpty() || previewsToo && holds.size() == 1 && holds.containsKey(PREVIEW);
      return inflight == 0 && unheld && now - lastActivity >= idleMs;
    }
  }
}
