package dev.workcell.task.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.support.Failures;
import dev.workcell.task.conversation.repository.TaskCreateStatements;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The task caps of the create transaction. One account's creates serialize on an advisory lock, so
 * WORK_MAX_TASKS_PER_USER is exact. The counts ride on the create's insert itself (see
 * {@link TaskCreateStatements#insertWithFirstRun}), which runs after the lock, so a create far from the
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
  private final TaskCreateStatements statements;

  public TaskCaps(TaskSettings settings, TaskCreateStatements statements) {
    this.settings = settings;
    this.statements = statements;
  }

  /**
   * The create's first statement: the caller's access facts read and the account's create lock taken
   * together (one round trip instead of two). The lock, held until the transaction ends, is taken by a
   * statement of its own before the insert, so the insert's counts see what the previous holder
   * committed; for an account that may not create it is merely held until the rollback.
   */
  public Uni<WorkAccess.Caller> authorizeAndLockOwner(SqlConnection connection, Actor actor) {
    UUID id;
    try {
      id = WorkAccess.accountId(actor);
    } catch (RuntimeException e) {
      return Uni.createFrom().failure(e);
    }
    return statements.lockAndReadAccess(connection, LOCKS, id.toString(), id)
        .map(row -> WorkAccess.requireWorkUser(actor, id, row.role(), row.status(), row.mode()));
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
  public Uni<Void> admitNearCaps(SqlConnection connection, UUID ownerId) {
    return statements.counts(connection, ownerId, settings.maxTasksGlobal())
        .chain(counts -> {
          if (counts[0] >= settings.maxTasksPerUser()) {
            return Failures.<Void>fail(ErrorCode.TOO_MANY_TASKS,
                "an account may own at most " + settings.maxTasksPerUser() + " tasks (WORK_MAX_TASKS_PER_USER)");
          }
          return statements.lock(connection, LOCKS, "global")
              .chain(() -> statements.counts(connection, ownerId, settings.maxTasksGlobal()))
              .chain(recount -> recount[1] < settings.maxTasksGlobal() ? Uni.createFrom().voidItem()
                  : Failures.<Void>fail(ErrorCode.TOO_MANY_TASKS,
                      "this instance holds at most " + settings.maxTasksGlobal() + " tasks (WORK_MAX_TASKS_GLOBAL)"));
        });
  }
}
