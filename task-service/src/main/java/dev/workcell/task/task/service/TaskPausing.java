package dev.workcell.task.task.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.RunState;
import dev.workcell.task.run.service.RunService;
import dev.workcell.task.sandbox.SandboxRuntime;
import dev.workcell.task.support.Failures;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * Pauses the tasks of accounts that just lost Work access: their active runs are cancelled and
 * their sandboxes stopped (volumes stay). The caller has already committed the revocation, so a
 * failure here never gives access back; it is reported for an operator to retry.
 */
@ApplicationScoped
public class TaskPausing {

  private static final int STOPS_IN_PARALLEL = 8;
  private static final String OWNERS_WITHOUT_ACCESS =
      "(select a.id from AccountEntity a where a.role <> 'admin' or a.status <> 'active')";

  private static final String REASON = "Work access was revoked";

  private final SandboxRuntime sandboxes;
  private final RunService runs;

  public TaskPausing(SandboxRuntime sandboxes, RunService runs) {
    this.sandboxes = sandboxes;
    this.runs = runs;
  }

  /** What was paused. */
  public record Paused(int tasks, int cancelledRuns) {}

  /** Pauses every task of every non-admin account (Work closed to users). */
  public Uni<Paused> pauseNonAdmins() {
    return pause("t.ownerId in " + OWNERS_WITHOUT_ACCESS, null);
  }

  /** Pauses every task of one account (demoted or disabled). */
  public Uni<Paused> pauseOwner(UUID ownerId) {
    return pause("t.ownerId = :owner", ownerId);
  }

  private Uni<Paused> pause(String ownerFilter, UUID ownerId) {
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> Panache.getSession().chain(session -> {
      String activeRuns = " r.state in ('preparing', 'running') and r.taskId in (select t.id from TaskEntity t where " + ownerFilter + ")";
      // The runs about to end, so their runners are told at once (the revocation is committed: no new run starts).
      var ending = session.createSelectionQuery("select r.taskId, r.id from RunEntity r where" + activeRuns, Object[].class);
      var cancelRuns = session.createMutationQuery("update RunEntity r set r.state = 'cancelled',"
              + " r.reason = :reason, r.finishedAt = :now where" + activeRuns)
          .setParameter("reason", REASON).setParameter("now", now);
      var settleTasks = session.createMutationQuery("update TaskEntity t set t.state = 'cancelled',"
              + " t.updatedAt = :now, t.lastFinishedAt = :now where t.state in ('preparing', 'running') and " + ownerFilter)
          .setParameter("now", now);
      var owned = session.createSelectionQuery("select t.id, t.ownerId from TaskEntity t where " + ownerFilter,
          Object[].class);
      if (ownerId != null) {
        ending.setParameter("owner", ownerId);
        cancelRuns.setParameter("owner", ownerId);
        settleTasks.setParameter("owner", ownerId);
        owned.setParameter("owner", ownerId);
      }
      return ending.getResultList().chain(ended -> cancelRuns.executeUpdate()
          .call(settleTasks::executeUpdate)
          .chain(cancelled -> owned.getResultList().map(rows -> new Found(rows, ended, cancelled))));
    })).call(found -> announce(found.ended))
        .chain(found -> stopAll(found.rows).replaceWith(new Paused(found.rows.size(), found.cancelled)));
  }

  /** Each ended run's runner hears it on its control subject and its stream gets its last events, as on cancel. */
  private Uni<Void> announce(List<Object[]> ended) {
    return Multi.createFrom().iterable(ended)
        .onItem().transformToUniAndConcatenate(run -> runs.announceEnded(run[0].toString(), run[1].toString(), RunState.CANCELLED, REASON))
        .collect().last().replaceWithVoid();
  }

  private Uni<Void> stopAll(List<Object[]> rows) {
    return Multi.createFrom().iterable(rows)
        .onItem().transformToUni(row -> sandboxes.stop((UUID) row[0], (UUID) row[1])
            .map(ignored -> (Object) Boolean.TRUE)
            .onFailure().recoverWithItem(failure -> failure))
        .merge(STOPS_IN_PARALLEL)
        .filter(outcome -> outcome instanceof Throwable)
        .collect().asList()
        .chain(failures -> failures.isEmpty() ? Uni.createFrom().voidItem()
            : Failures.fail(code(failures.get(0)), "Work access is revoked, but " + failures.size() + " of "
                + rows.size() + " sandboxes could not be stopped: " + ((Throwable) failures.get(0)).getMessage()));
  }

  private static ErrorCode code(Object failure) {
    return failure instanceof WorkcellException e ? e.code() : ErrorCode.SERVICE_UNAVAILABLE;
  }

  private record Found(List<Object[]> rows, List<Object[]> ended, int cancelled) {}
}
