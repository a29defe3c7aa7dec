package dev.workcell.sandbox.admission;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.SandboxSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Runtime leases: a sandbox holds one while it runs. Two pools: Work task sandboxes count against
 * the per-owner and global caps (WORK_MAX_ACTIVE_RUNTIMES_*); Open Terminal homes count only against
 * their own cap ({@code workcell.sandbox.home.max-active}), so terminal users never starve Work tasks
 * and the reverse. Operations on a sandbox that already holds its lease ride on it and never count twice.
 */
@ApplicationScoped
public class RuntimeAdmission {

  private final int globalCap;
  private final int perUserCap;
  private final int homeCap;
  private final LongSupplier clock;
  private final Map<String, Lease> leases = new HashMap<>();

  @Inject
  public RuntimeAdmission(SandboxSettings settings) {
    this(settings.maxActiveRuntimesGlobal(), settings.maxActiveRuntimesPerUser(), settings.home().maxActive(),
        System::currentTimeMillis);
  }

  RuntimeAdmission(int globalCap, int perUserCap, int homeCap, LongSupplier clock) {
    this.globalCap = globalCap;
    this.perUserCap = perUserCap;
    this.homeCap = homeCap;
    this.clock = clock;
  }

  /** An idle home that may be stopped to make room, as seen at {@code version} (any later use changes it). */
  public record IdleHome(String id, long version) {}

  /** Takes the task's lease, or confirms it holds one; {@code too_many_runtimes} when a Work cap is full. */
  public synchronized boolean admit(String taskId, String ownerId) {
    if (leases.containsKey(taskId)) {
      return false;
    }
    long work = leases.values().stream().filter(lease -> !lease.home).count();
    if (work >= globalCap) {
      throw new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES,
          "all " + globalCap + " sandbox slots of this instance are in use; wait for one to stop");
    }
    long mine = leases.values().stream().filter(lease -> !lease.home && lease.ownerId.equals(ownerId)).count();
    if (mine >= perUserCap) {
      throw new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES,
          "this owner already runs " + mine + " sandboxes (limit " + perUserCap + "); stop one first");
    }
    leases.put(taskId, new Lease(ownerId, false, clock.getAsLong()));
    return true;
  }

  /** Takes a home's lease when a home slot is free; false when the home pool is full (nothing taken). */
  public synchronized boolean admitHome(String homeId) {
    if (homes() >= homeCap) {
      return false;
    }
    leases.put(homeId, new Lease(homeId, true, clock.getAsLong()));
    return true;
  }

  /** Homes with nothing in flight, least recently active first: the candidates to make room for a new home. */
  public synchronized List<IdleHome> idleHomesByAge() {
    return leases.entrySet().stream()
        .filter(e -> e.getValue().home && e.getValue().inflight == 0)
        .sorted(Comparator.comparingLong(e -> e.getValue().lastActivity))
        .map(e -> new IdleHome(e.getKey(), e.getValue().version)).toList();
  }

  /**
   * Moves an idle home's slot to {@code newHomeId} in one step, only if nothing used the idle home
   * since {@code seen} (so a request that slipped in is never cut off); false otherwise.
   */
  public synchronized boolean transferHome(IdleHome seen, String newHomeId) {
    Lease lease = leases.get(seen.id());
    if (lease == null || !lease.home || lease.inflight > 0 || lease.version != seen.version() || leases.containsKey(newHomeId)) {
      return false;
    }
    leases.remove(seen.id());
    leases.put(newHomeId, new Lease(newHomeId, true, clock.getAsLong()));
    return true;
  }

  public int homeCap() {
    return homeCap;
  }

  public synchronized void release(String id) {
    leases.remove(id);
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
    }
  }

  /** Work task sandboxes with nothing in flight and no activity for {@code idleMs}. */
  public synchronized List<String> idleTasks(long idleMs) {
    return idle(false, idleMs);
  }

  /** Homes with nothing in flight and no activity for {@code idleMs}. */
  public synchronized List<String> idleHomes(long idleMs) {
    return idle(true, idleMs);
  }

  private List<String> idle(boolean home, long idleMs) {
    long now = clock.getAsLong();
    return leases.entrySet().stream()
        .filter(e -> e.getValue().home == home && e.getValue().inflight == 0 && now - e.getValue().lastActivity >= idleMs)
        .map(Map.Entry::getKey).toList();
  }

  /** Releases the lease only if the sandbox is still idle, so a stop never races a starting operation. */
  public synchronized boolean releaseIfIdle(String id, long idleMs) {
    Lease lease = leases.get(id);
    if (lease == null || lease.inflight > 0 || clock.getAsLong() - lease.lastActivity < idleMs) {
      return false;
    }
    leases.remove(id);
    return true;
  }

  public synchronized boolean holds(String id) {
    return leases.containsKey(id);
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

  private final class Lease {
    final String ownerId;
    final boolean home;
    int inflight;
    long lastActivity;
    /** Bumped by every use, so an eviction can tell "still the idle home I checked" from "used meanwhile". */
    long version;

    Lease(String ownerId, boolean home, long now) {
      this.ownerId = ownerId;
      this.home = home;
      this.lastActivity = now;
    }

    void used() {
      lastActivity = clock.getAsLong();
      version++;
    }
  }
}
