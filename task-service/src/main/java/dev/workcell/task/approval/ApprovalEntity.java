package dev.workcell.task.approval;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of {@code approvals}: one gated tool call and its decision. */
@Entity
@Table(name = "approvals")
public class ApprovalEntity extends PanacheEntityBase {

  @Id
  public UUID id;

  @Column(name = "task_id", nullable = false, updatable = false)
  public UUID taskId;

  @Column(name = "run_id", nullable = false, updatable = false)
  public UUID runId;

  @Column(name = "tool_call_id", nullable = false, updatable = false)
  public String toolCallId;

  @Column(name = "tool_name", nullable = false, updatable = false)
  public String toolName;

  @Column(updatable = false)
  public String program;

  @Column(updatable = false)
  public String summary;

  /** pending, allowed, denied or expired. */
  @Column(nullable = false)
  public String state;

  public String decision;

  @Column(name = "decided_by")
  public String decidedBy;

  @Column(name = "created_at", nullable = false, updatable = false)
  public OffsetDateTime createdAt;

  @Column(name = "expires_at", nullable = false, updatable = false)
  public OffsetDateTime expiresAt;

  @Column(name = "decided_at")
  public OffsetDateTime decidedAt;
}
