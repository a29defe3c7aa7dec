package dev.workcell.task.task.repository;

import dev.workcell.contracts.Actor;
import dev.workcell.task.message.MessageEntity;
import dev.workcell.task.run.RunEntity;
import dev.workcell.task.task.TaskEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class TaskRepository implements PanacheRepositoryBase<TaskEntity, UUID> {

  /**
   * Inserts a new task, its first run, the opening message and the audit entry in one statement
   * (one round trip instead of four), in the caller's transaction, and only while the owner holds
   * fewer than {@code ownerBelow} tasks and the instance fewer than {@code globalBelow}: the counts
   * ride on the insert, whose snapshot is taken after the caller's cap lock. Returns the message's
   * id, or null when a count refused the insert (nothing was written).
   */
  public Uni<Long> insertWithFirstRun(TaskEntity task, RunEntity run, MessageEntity message, Actor actor,
      String auditDetail, long ownerBelow, long globalBelow) {
    String sql = "with t as (insert into tasks (id, owner_id, title, provider_kind, provider_id, model, policy_id,"
        + " network_enabled, sandbox_name, volume_name, approvals_enabled, state, created_at, updated_at)"
        + " select ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14"
        + " where (select count(*) from tasks where owner_id = ?2) < ?24"
        + " and (select count(*) from (select 1 from tasks limit ?25) g) < ?25 returning id),"
        + " r as (insert into runs (id, task_id, state, provider_kind, provider_id, model, created_at)"
        + " select ?15, t.id, ?16, ?4, ?5, ?6, ?17 from t returning id),"
        + " a as (insert into audit_log (actor_id, actor_role, action, task_id, detail)"
        + " select ?18, ?19, 'task.create', t.id, ?20 from t)"
        + " insert into messages (task_id, run_id, role, content, created_at) select ?1, r.id, ?21, ?22, ?23 from r"
        + " returning id";
    return getSession().chain(session -> session.<Object>createNativeQuery(sql)
            .setParameter(1, task.id).setParameter(2, task.ownerId).setParameter(3, task.title)
            .setParameter(4, task.providerKind).setParameter(5, task.providerId).setParameter(6, task.model)
            .setParameter(7, task.policyId).setParameter(8, task.networkEnabled).setParameter(9, task.sandboxName)
            .setParameter(10, task.volumeName).setParameter(11, task.approvalsEnabled).setParameter(12, task.state)
            .setParameter(13, task.createdAt).setParameter(14, task.updatedAt)
            .setParameter(15, run.id).setParameter(16, run.state).setParameter(17, run.createdAt)
            .setParameter(18, actor.accountId()).setParameter(19, actor.role().wire()).setParameter(20, auditDetail)
            .setParameter(21, message.role).setParameter(22, message.content).setParameter(23, message.createdAt)
            .setParameter(24, ownerBelow).setParameter(25, globalBelow)
            .getResultList())
        .map(rows -> rows.isEmpty() ? null : ((Number) rows.get(0)).longValue());
  }

  /** The task if {@code ownerId} owns it; null otherwise (another owner's task does not exist for you). */
  public Uni<TaskEntity> findOwned(UUID id, UUID ownerId) {
    return find("id = ?1 and ownerId = ?2", id, ownerId).firstResult();
  }

  /** Like {@link #findOwned} with the row locked until the transaction ends. */
  public Uni<TaskEntity> lockOwned(UUID id, UUID ownerId) {
    return find("id = ?1 and ownerId = ?2", id, ownerId).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
  }

  public Uni<List<TaskEntity>> ownedBy(UUID ownerId) {
    return find("ownerId = ?1 order by updatedAt desc", ownerId).list();
  }

  public Uni<List<TaskEntity>> newest(int limit) {
    return find("order by updatedAt desc").page(0, limit).list();
  }

  public Uni<List<UUID>> existing(List<UUID> ids) {
    return getSession().chain(session -> session
        .createSelectionQuery("select t.id from TaskEntity t where t.id in :ids", UUID.class)
        .setParameter("ids", ids)
        .getResultList());
  }
}
