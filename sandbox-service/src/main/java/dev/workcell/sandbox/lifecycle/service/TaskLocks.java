package dev.workcell.sandbox.lifecycle.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/** Serialises lifecycle changes per task (striped, so memory stays bounded however many tasks exist). */
final class TaskLocks {

  private static final int STRIPES = 128;
  private static final long WAIT_SECONDS = 120;

  private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

  TaskLocks() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /**
   * Runs {@code work} only if the lock is free right now; false otherwise. For work on a second
   * sandbox while holding the first's lock: waiting there could deadlock two stripes.
   */
  boolean tryWith(String taskId, Supplier<Boolean> work) {
    ReentrantLock lock = stripes[Math.floorMod(taskId.hashCode(), STRIPES)];
    if (!lock.tryLock()) {
      return false;
    }
    try {
      return work.get();
    } finally {
      lock.unlock();
    }
  }

  <T> T with(String taskId, Supplier<T> work) {
    ReentrantLock lock = stripes[Math.floorMod(taskId.hashCode(), STRIPES)];
    try {
      if (!lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "the sandbox of " + taskId + " is busy changing state");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkcellException(ErrorCode.CANCELLED, "interrupted while waiting for the sandbox of " + taskId);
    }
    try {
      return work.get();
    } finally {
      lock.unlock();
    }
  }
}
