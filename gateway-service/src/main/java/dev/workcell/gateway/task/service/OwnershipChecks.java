package dev.workcell.gateway.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.task.config.OwnershipSettings;
import dev.workcell.gateway.task.service.TaskSandboxes.CallerSandbox;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * task-service's recent answers that an account may reach a task, reused so a Work file request
 * does not wait for a task-service and database round trip every time (under a flood of another
 * user's writes those two extra hops were most of a small read's tail). An answer is reused for at
 * most {@code reuseFor}, checked again in the background once it is {@code recheckAfter} old, and
 * forgotten at once when task-service announces that the account's or task's reach narrowed
 * ({@link #forgetAccount}) or when the gateway reconnects to NATS (a notice may have been missed).
 * Only answers that granted are kept; a refusal is never reused.
 *
 * <p>A check that was on its way while a revocation arrived is not kept: every revocation moves an
 * epoch, and an answer is kept only if the epoch did not move since its check was sent.
 */
@ApplicationScoped
public class OwnershipChecks {

  /** The caller as the token claims it, and the task. */
  public record Key(String accountId, Actor.Role claimedRole, String taskId) {}

  private static final class Grant {
    final CallerSandbox sandbox;
    final long checkedAt;
    final AtomicBoolean rechecking = new AtomicBoolean();

    Grant(CallerSandbox sandbox, long checkedAt) {
      this.sandbox = sandbox;
      this.checkedAt = checkedAt;
    }
  }

  private final Map<Key, Grant> grants = new ConcurrentHashMap<>();
  private final AtomicLong epoch = new AtomicLong();
  private final long reuseNanos;
  private final long recheckNanos;
  private final int maxEntries;

  public OwnershipChecks(OwnershipSettings settings) {
    this.reuseNanos = settings.reuseFor().toNanos();
    this.recheckNanos = Math.min(settings.recheckAfter().toNanos(), reuseNanos);
    this.maxEntries = settings.maxEntries();
  }

  /** {@code check}'s answer, or a recent one for the same key (then {@code check} may run in the background). */
  public Uni<CallerSandbox> reuseOr(Key key, Uni<CallerSandbox> check) {
    if (reuseNanos <= 0) {
      return check;
    }
    long now = System.nanoTime();
    Grant grant = grants.get(key);
    if (grant == null || now - grant.checkedAt >= reuseNanos) {
      return checked(key, check, now);
    }
    if (now - grant.checkedAt >= recheckNanos && grant.rechecking.compareAndSet(false, true)) {
      checked(key, check, now).subscribe().with(ignored -> {}, failure -> grant.rechecking.set(false));
    }
    return Uni.createFrom().item(grant.sandbox);
  }

  /** Every answer about this account (its status, role or Work access changed). */
  public void forgetAccount(String accountId) {
    forget(key -> key.accountId().equals(accountId));
  }

  /** Every answer about this task (it is being deleted). */
  public void forgetTask(String taskId) {
    forget(key -> key.taskId().equals(taskId));
  }

  /** Every answer (the access mode changed, or notices may have been missed). */
  public void forgetAll() {
    forget(key -> true);
  }

  int size() {
    return grants.size();
  }

  private void forget(Predicate<Key> which) {
    epoch.incrementAndGet(); // first: a check on its way now is not kept
    grants.keySet().removeIf(which);
  }

  private Uni<CallerSandbox> checked(Key key, Uni<CallerSandbox> check, long sentAt) {
    long sentEpoch = epoch.get();
    return check
        .invoke(sandbox -> keep(key, new Grant(sandbox, sentAt), sentEpoch))
        .onFailure(OwnershipChecks::refusal).invoke(() -> grants.remove(key));
  }

  private void keep(Key key, Grant grant, long sentEpoch) {
    if (grants.size() >= maxEntries && !grants.containsKey(key)) {
      long now = System.nanoTime();
      grants.values().removeIf(old -> now - old.checkedAt >= reuseNanos);
      if (grants.size() >= maxEntries) {
        Log.debugf("ownership checks: %d kept, not keeping more", grants.size());
        return;
      }
    }
    grants.put(key, grant);
    if (epoch.get() != sentEpoch) { // a revocation came while the check was on its way
      grants.remove(key, grant);
    }
  }

  /** task-service said no (not found, disabled, no Work access, role changed): nothing may be reused. */
  private static boolean refusal(Throwable failure) {
    if (!(failure instanceof WorkcellException e)) {
      return false;
    }
    int status = e.code().httpStatus();
    return status == 401 || status == 403 || status == 404 || status == 409;
  }
}
