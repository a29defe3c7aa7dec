package dev.workcell.task.approval;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of {@code approval_rules}: an always-allow scope (a tool, or a tool and one program). */
@Entity
@Table(name = "approval_rules")
public class ApprovalRuleEntity extends PanacheEntityBase {

  @Id
  public UUID id;

  @Column(name = "task_id", nullable = false, updatable = false)
  public UUID taskId;

  @Column(name = "tool_name", nullable = false, updatable = false)
  public String toolName;

  @Column(updatable = false)
  public String program;

  @Column(name = "created_by", updatable = false)
  public String createdBy;

  @Column(name = "created_at", nullable = false, updatable = false)
  public OffsetDateTime createdAt;
}
