package dev.workcell.sandbox.admission;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.SandboxSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Runtime leases: a task holds one while its sandbox runs, counted against the per-owner and global
 * caps. Operations on a task that already holds its lease ride on it and never count twice.
 */
@ApplicationScoped
public class RuntimeAdmission {

  private final int globalCap;
  private final int perUserCap;
  private final LongSupplier clock;
  private final Map<String, Lease> leases = new HashMap<>();

  @Inject
  public RuntimeAdmission(SandboxSettings settings) {
    this(settings.maxActiveRuntimesGlobal(), settings.maxActiveRuntimesPerUser(), System::currentTimeMillis);
  }

  RuntimeAdmission(int globalCap, int perUserCap, LongSupplier clock) {
    this.globalCap = globalCap;
    this.perUserCap = perUserCap;
    this.clock = clock;
  }

  /** Takes the task's lease, or confirms it holds one; {@code too_many_runtimes} when a cap is full. */
  public synchronized boolean admit(String taskId, String ownerId) {
    if (leases.containsKey(taskId)) {
      return false;
    }
    if (leases.size() >= globalCap) {
      throw new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES,
          "all " + globalCap + " sandbox slots of this instance are in use; wait for one to stop");
    }
    long mine = leases.values().stream().filter(lease -> lease.ownerId.equals(ownerId)).count();
    if (mine >= perUserCap) {
      throw new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES,
          "this owner already runs " + mine + " sandboxes (limit " + perUserCap + "); stop one first");
    }
    leases.put(taskId, new Lease(ownerId, clock.getAsLong()));
    return true;
  }

  public synchronized void release(String taskId) {
    leases.remove(taskId);
  }

  /** Starts an operation on a task that holds its lease; false when it holds none. */
  public synchronized boolean begin(String taskId) {
    Lease lease = leases.get(taskId);
    if (lease == null) {
      return false;
    }
    lease.inflight++;
    lease.lastActivity = clock.getAsLong();
    return true;
  }

  public synchronized void end(String taskId) {
    Lease lease = leases.get(taskId);
    if (lease != null && lease.inflight > 0) {
      lease.inflight--;
      lease.lastActivity = clock.getAsLong();
    }
  }

  /** Records activity without an operation (a sandbox kept busy by its background processes). */
  public synchronized void touch(String taskId) {
    Lease lease = leases.get(taskId);
    if (lease != null) {
      lease.lastActivity = clock.getAsLong();
    }
  }

  /** Tasks with nothing in flight and no activity for {@code idleMs}. */
  public synchronized List<String> idle(long idleMs) {
    long now = clock.getAsLong();
    return leases.entrySet().stream()
        .filter(e -> e.getValue().inflight == 0 && now - e.getValue().lastActivity >= idleMs)
        .map(Map.Entry::getKey).toList();
  }

  /** Releases the lease only if the task is still idle, so a stop never races a starting operation. */
  public synchronized boolean releaseIfIdle(String taskId, long idleMs) {
    Lease lease = leases.get(taskId);
    if (lease == null || lease.inflight > 0 || clock.getAsLong() - lease.lastActivity < idleMs) {
      return false;
    }
    leases.remove(taskId);
    return true;
  }

  public synchronized boolean holds(String taskId) {
    return leases.containsKey(taskId);
  }

  public synchronized int active() {
    return leases.size();
  }

  private static final class Lease {
    final String ownerId;
    int inflight;
    long lastActivity;

    Lease(String ownerId, long now) {
      this.ownerId = ownerId;
      this.lastActivity = now;
    }
  }
}
