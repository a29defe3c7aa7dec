package dev.workcell.task.approval.repository;

import dev.workcell.contracts.task.ApprovalDecision;
import dev.workcell.task.approval.ApprovalEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class ApprovalRepository implements PanacheRepositoryBase<ApprovalEntity, UUID> {

  public Uni<ApprovalEntity> ofTask(UUID taskId, UUID approvalId) {
    return find("id = ?1 and taskId = ?2", approvalId, taskId).firstResult();
  }

  public Uni<List<ApprovalEntity>> pending(UUID taskId) {
    return find("taskId = ?1 and state = 'pending' order by createdAt", taskId).list();
  }

  public Uni<Long> countPending(UUID taskId) {
    return count("taskId = ?1 and state = 'pending'", taskId);
  }

  /** Pending approvals past their deadline become expired; the action they gate is not run. */
  public Uni<Integer> expireDue(UUID taskId, OffsetDateTime now) {
    return update("state = 'expired', decision = 'timeout', decidedAt = ?1 where taskId = ?2 and state = 'pending'"
        + " and expiresAt <= ?1", now, taskId);
  }

  /** Decides a pending, unexpired approval; 0 when it was decided or expired first. */
  public Uni<Integer> decide(UUID approvalId, ApprovalDecision decision, String decidedBy, OffsetDateTime now) {
    return update("state = ?1, decision = ?2, decidedBy = ?3, decidedAt = ?4 where id = ?5 and state = 'pending'"
        + " and expiresAt > ?4", decision.outcome().wire(), decision.wire(), decidedBy, now, approvalId);
  }
}
