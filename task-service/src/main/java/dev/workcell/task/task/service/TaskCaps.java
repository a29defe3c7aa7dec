package dev.workcell.task.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.task.access.WorkSettingsEntity;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.support.Failures;
import dev.workcell.task.task.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * The task caps of the create transaction. One account's creates serialize on an advisory lock, so
 * WORK_MAX_TASKS_PER_USER is exact. The counts ride on the create's insert itself (see
 * {@link TaskRepository#insertWithFirstRun}), which runs after the lock, so a create far from the
 * caps costs no extra round trip. Far below WORK_MAX_TASKS_GLOBAL creates of different accounts run
 * in parallel (a shared counter row would make every create wait for the previous one's commit);
 * within {@link #GLOBAL_MARGIN} of it they serialize on a global lock too. The margin exceeds the
 * database connections all replicas can use for creates at once, so the global cap stays exact as
 * well.
 */
@ApplicationScoped
public class TaskCaps {

  /** Free global slots below which creates take the global lock. */
  static final int GLOBAL_MARGIN = 64;
  /** Advisory lock namespace of task creation ("WCTK"). */
  private static final int LOCKS = 0x5743544B;

  private final TaskSettings settings;

  public TaskCaps(TaskSettings settings) {
    this.settings = settings;
  }

  /**
   * The create's first statement: the caller's access facts read and the account's create lock taken
   * together (one round trip instead of two). The lock, held until the transaction ends, is taken by a
   * statement of its own before the insert, so the insert's counts see what the previous holder
   * committed; for an account that may not create it is merely held until the rollback.
   */
  public Uni<WorkAccess.Caller> authorizeAndLockOwner(Actor actor) {
    UUID id;
    try {
      id = WorkAccess.accountId(actor);
    } catch (RuntimeException e) {
      return Uni.createFrom().failure(e);
    }
    return Panache.getSession().chain(session -> session.<Object[]>createNativeQuery(
            "select a.role, a.status, s.access_mode from accounts a cross join work_settings s"
                + " cross join (select pg_advisory_xact_lock(?1, hashtext(?2))) l where a.id = ?3 and s.id = "
                + WorkSettingsEntity.ID)
        .setParameter(1, LOCKS).setParameter(2, id.toString()).setParameter(3, id)
        .getResultList())
        .map(rows -> rows.isEmpty() ? WorkAccess.requireWorkUser(actor, id, null, null, null)
            : WorkAccess.requireWorkUser(actor, id, (String) rows.get(0)[0], (String) rows.get(0)[1],
                (String) rows.get(0)[2]));
  }

  /** The owner count the first insert must stay below: the per-account cap. */
  public long ownerBelow() {
    return settings.maxTasksPerUser();
  }

  /** The instance count the first insert must stay below: far from the global cap, no global lock. */
  public long globalFarBelow() {
    return Math.max(0, settings.maxTasksGlobal() - GLOBAL_MARGIN);
  }

  /** The global cap itself: the bound of the second insert, under both locks. */
  public long globalBelow() {
    return settings.maxTasksGlobal();
  }

  /**
   * After the first insert was refused: fails too_many_tasks (429) when a cap is reached, else
   * takes the global lock (near the global cap) so the second insert, below the caps themselves,
   * is exact. Must run in the create transaction, after {@link #authorizeAndLockOwner}.
   */
  public Uni<Void> admitNearCaps(UUID ownerId) {
    return Panache.getSession().chain(session -> counts(session, ownerId, settings.maxTasksGlobal())
        .chain(counts -> {
          if (counts[0] >= settings.maxTasksPerUser()) {
            return Failures.<Void>fail(ErrorCode.TOO_MANY_TASKS,
                "an account may own at most " + settings.maxTasksPerUser() + " tasks (WORK_MAX_TASKS_PER_USER)");
          }
          return lock(session, "global")
              .chain(() -> counts(session, ownerId, settings.maxTasksGlobal()))
              .chain(recount -> recount[1] < settings.maxTasksGlobal() ? Uni.createFrom().voidItem()
                  : Failures.<Void>fail(ErrorCode.TOO_MANY_TASKS,
                      "this instance holds at most " + settings.maxTasksGlobal() + " tasks (WORK_MAX_TASKS_GLOBAL)"));
        }));
  }

  /** A transaction-scoped advisory lock; its own statement, so the next statement sees what the holder committed. */
  private static Uni<Void> lock(Mutiny.Session session, String key) {
    return session.createNativeQuery("select 1 from (select pg_advisory_xact_lock(?1, hashtext(?2))) l")
        .setParameter(1, LOCKS).setParameter(2, key).getResultList().replaceWithVoid();
  }

  /** The owner's tasks and the instance's, the latter counted no further than the cap. */
  private static Uni<long[]> counts(Mutiny.Session session, UUID ownerId, int globalCap) {
    return session.<Object[]>createNativeQuery("select (select count(*) from tasks where owner_id = ?1),"
            + " (select count(*) from (select 1 from tasks limit ?2) t)")
        .setParameter(1, ownerId).setParameter(2, globalCap).getSingleResult()
        .map(row -> new long[] {((Number) row[0]).longValue(), ((Number) row[1]).longValue()});
  }
}
