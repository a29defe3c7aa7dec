package dev.workcell.task.approval.repository;

import dev.workcell.task.approval.ApprovalRuleEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class ApprovalRuleRepository implements PanacheRepositoryBase<ApprovalRuleEntity, UUID> {

  public Uni<List<ApprovalRuleEntity>> ofTask(UUID taskId) {
    return find("taskId = ?1 order by createdAt", taskId).list();
  }

  /** A rule for the whole tool, or for this exact program of it. */
  public Uni<ApprovalRuleEntity> matching(UUID taskId, String toolName, String program) {
    return find("taskId = ?1 and toolName = ?2 and (program is null or program = ?3)", taskId, toolName,
        program == null ? "" : program).firstResult();
  }

  /** Adds the rule unless the same scope exists already (the unique index makes this race-free). */
  public Uni<Integer> addIfAbsent(UUID taskId, String toolName, String program, String createdBy) {
    return getSession().chain(session -> session.createNativeQuery(
            "insert into approval_rules (id, task_id, tool_name, program, created_by) values (?1, ?2, ?3, ?4, ?5)"
                + " on conflict do nothing")
        .setParameter(1, UUID.randomUUID()).setParameter(2, taskId).setParameter(3, toolName)
        .setParameter(4, program).setParameter(5, createdBy)
        .executeUpdate());
  }
}
