package dev.workcell.task.conversation.repository;

import dev.workcell.task.conversation.MessageEntity;
import dev.workcell.task.conversation.RunEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.UUID;

@ApplicationScoped
public class RunRepository implements PanacheRepositoryBase<RunEntity, UUID> {

  static final String ACTIVE = "('preparing', 'running')";

  public Uni<RunEntity> active(UUID taskId) {
    return find("taskId = ?1 and state in " + ACTIVE, taskId).firstResult();
  }

  public Uni<RunEntity> latest(UUID taskId) {
    return find("taskId = ?1 order by createdAt desc", taskId).firstResult();
  }

  /** The run if it belongs to the task; null otherwise. */
  public Uni<RunEntity> ofTask(UUID taskId, UUID runId) {
    return find("id = ?1 and taskId = ?2", runId, taskId).firstResult();
  }

  /**
   * Inserts a new run and its opening user message in one statement (one round trip, not two);
   * returns the message's id. A second active run of the task fails on runs_one_active_per_task.
   */
  public Uni<Long> insertWithMessage(RunEntity run, MessageEntity message) {
    return getSession().chain(session -> session.<Object>createNativeQuery("with r as (insert into runs (id, task_id,"
            + " state, provider_kind, provider_id, model, created_at) values (?1, ?2, ?3, ?4, ?5, ?6, ?7))"
            + " insert into messages (task_id, run_id, role, content, created_at) values (?2, ?1, ?8, ?9, ?10) returning id")
        .setParameter(1, run.id).setParameter(2, run.taskId).setParameter(3, run.state)
        .setParameter(4, run.providerKind).setParameter(5, run.providerId).setParameter(6, run.model)
        .setParameter(7, run.createdAt).setParameter(8, message.role).setParameter(9, message.content)
        .setParameter(10, message.createdAt)
        .getSingleResult())
        .map(id -> ((Number) id).longValue());
  }

  /** Ends the task's active run, if any, with {@code state}; returns how many runs ended (0 or 1). */
  public Uni<Integer> endActive(UUID taskId, String state, String reason, OffsetDateTime now) {
    return update("state = ?1, reason = ?2, finishedAt = ?3 where taskId = ?4 and state in " + ACTIVE,
        state, reason, now, taskId);
  }

  /**
   * Moves one run if it is still in one of {@code from}: a conditional update, so a runner's
   * transition and a user's cancel cannot overwrite each other.
   */
  public Uni<Integer> move(UUID runId, String from, String to, String reason, OffsetDateTime now, boolean finished) {
    String set = finished ? "state = ?1, reason = ?2, finishedAt = ?3" : "state = ?1, reason = coalesce(?2, reason), startedAt = ?3";
    return update(set + " where id = ?4 and state in " + from, to, reason, now, runId);
  }

  /** Claims (runner id still empty) or renews the lease of an active run; returns 1 when held. */
  public Uni<Integer> renewLease(UUID runId, String runnerId, OffsetDateTime until) {
    return update("runnerId = ?1, leaseExpiresAt = ?2 where id = ?3 and state in " + ACTIVE
        + " and (runnerId is null or runnerId = ?1)", runnerId, until, runId);
  }

  /**
   * Claims a preparing run for one runner: running, with its lease. A conditional update, so of
   * several runners claiming at once exactly one moves it (the others wait on the row and find it no
   * longer preparing); returns 1 when claimed.
   */
  public Uni<Integer> claim(UUID runId, String runnerId, OffsetDateTime until, OffsetDateTime now) {
    return update("state = 'running', startedAt = ?1, runnerId = ?2, leaseExpiresAt = ?3 where id = ?4 and state = 'preparing'",
        now, runnerId, until, runId);
  }

  /** Active runs whose lease expired before {@code now}: their runner is gone. */
  public Uni<java.util.List<RunEntity>> leaseExpired(OffsetDateTime now) {
    return list("state in " + ACTIVE + " and leaseExpiresAt < ?1", now);
  }

  /** Preparing runs no runner ever took, created before {@code before}. */
  public Uni<java.util.List<RunEntity>> untakenSince(OffsetDateTime before) {
    return list("state = 'preparing' and leaseExpiresAt is null and createdAt < ?1", before);
  }

  /** Fails a run whose lease expired, unless its runner renewed it meanwhile; returns 1 when failed. */
  public Uni<Integer> failExpired(UUID runId, String reason, OffsetDateTime now) {
    return update("state = 'failed', reason = ?1, finishedAt = ?2 where id = ?3 and state in " + ACTIVE
        + " and leaseExpiresAt < ?2", reason, now, runId);
  }

  /** Fails a run that is still untaken; returns 1 when failed. */
  public Uni<Integer> failUntaken(UUID runId, String reason, OffsetDateTime now) {
    return update("state = 'failed', reason = ?1, finishedAt = ?2 where id = ?3 and state = 'preparing'"
        + " and leaseExpiresAt is null", reason, now, runId);
  }
}
