package dev.workcell.task.conversation.repository;

import dev.workcell.task.conversation.TaskEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class TaskRepository implements PanacheRepositoryBase<TaskEntity, UUID> {

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
