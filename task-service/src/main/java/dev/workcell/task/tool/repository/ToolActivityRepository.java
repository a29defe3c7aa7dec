package dev.workcell.task.tool.repository;

import dev.workcell.task.tool.ToolActivityEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class ToolActivityRepository implements PanacheRepositoryBase<ToolActivityEntity, Long> {

  public Uni<ToolActivityEntity> ofCall(UUID runId, String toolCallId) {
    return find("runId = ?1 and toolCallId = ?2", runId, toolCallId).firstResult();
  }

  /** Newest first, older than {@code beforeId}; of one run when {@code runId} is given. */
  public Uni<List<ToolActivityEntity>> page(UUID taskId, UUID runId, long beforeId, int limit) {
    String where = "taskId = :task and id < :before" + (runId == null ? "" : " and runId = :run");
    Parameters params = Parameters.with("task", taskId).and("before", beforeId);
    if (runId != null) {
      params = params.and("run", runId);
    }
    return find(where + " order by id desc", params).page(0, limit).list();
  }
}
