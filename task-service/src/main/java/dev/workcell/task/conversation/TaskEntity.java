package dev.workcell.task.conversation;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * A row of {@code tasks}. Runs, messages and the rest refer to it by id (no JPA associations): each
 * feature loads what it needs, and the database cascades deletes.
 */
@Entity
@Table(name = "tasks")
public class TaskEntity extends PanacheEntityBase {

  @Id
  public UUID id;

  @Column(name = "owner_id", nullable = false, updatable = false)
  public UUID ownerId;

  @Column(nullable = false)
  public String title;

  @Column(name = "provider_kind", nullable = false)
  public String providerKind;

  @Column(name = "provider_id", nullable = false)
  public String providerId;

  @Column(nullable = false)
  public String model;

  @Column(name = "policy_id")
  public UUID policyId;

  @Column(name = "network_enabled", nullable = false)
  public boolean networkEnabled;

  @Column(name = "sandbox_name", nullable = false, updatable = false)
  public String sandboxName;

  @Column(name = "volume_name", nullable = false, updatable = false)
  public String volumeName;

  /** The real path of a host folder bound as /workspace (decision 0023); null: the task's volume. */
  @Column(name = "workspace_folder", updatable = false)
  public String workspaceFolder;

  @Column(nullable = false)
  public boolean decommissioning;

  @Column(name = "decommission_error")
  public String decommissionError;

  @Column(name = "seen_at")
  public OffsetDateTime seenAt;

  @Column(name = "last_finished_at")
  public OffsetDateTime lastFinishedAt;

  @Column(name = "approvals_enabled", nullable = false)
  public boolean approvalsEnabled;

  @Column(nullable = false)
  public String state;

  @Column(name = "created_at", nullable = false, updatable = false)
  public OffsetDateTime createdAt;

  @Column(name = "updated_at", nullable = false)
  public OffsetDateTime updatedAt;
}
