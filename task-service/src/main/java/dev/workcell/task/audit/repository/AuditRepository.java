package dev.workcell.task.audit.repository;

import dev.workcell.task.audit.AuditEntryEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class AuditRepository implements PanacheRepositoryBase<AuditEntryEntity, Long> {

  /** Newest first, older than {@code beforeId}, optionally of one task. */
  public Uni<List<AuditEntryEntity>> page(UUID taskId, long beforeId, int limit) {
    String where = taskId == null ? "id < :before" : "id < :before and taskId = :task";
    Parameters params = Parameters.with("before", beforeId);
    if (taskId != null) {
      params = params.and("task", taskId);
    }
    return find(where + " order by id desc", params).page(0, limit).list();
  }
}
