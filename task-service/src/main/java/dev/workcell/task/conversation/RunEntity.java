package dev.workcell.task.conversation;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of {@code runs}; the route columns are a snapshot taken when the run started. */
@Entity
@Table(name = "runs")
public class RunEntity extends PanacheEntityBase {

  @Id
  public UUID id;

  @Column(name = "task_id", nullable = false, updatable = false)
  public UUID taskId;

  @Column(nullable = false)
  public String state;

  @Column(name = "provider_kind", nullable = false, updatable = false)
  public String providerKind;

  @Column(name = "provider_id", nullable = false, updatable = false)
  public String providerId;

  @Column(nullable = false, updatable = false)
  public String model;

  public String reason;

  @Column(name = "input_tokens", nullable = false)
  public long inputTokens;

  @Column(name = "output_tokens", nullable = false)
  public long outputTokens;

  @Column(nullable = false)
  public int rounds;

  @Column(name = "tool_calls", nullable = false)
  public int toolCalls;

  @Column(name = "created_at", nullable = false, updatable = false)
  public OffsetDateTime createdAt;

  @Column(name = "started_at")
  public OffsetDateTime startedAt;

  @Column(name = "finished_at")
  public OffsetDateTime finishedAt;

  /** The agent-runner that holds the run's lease (set by its first heartbeat). */
  @Column(name = "runner_id")
  public String runnerId;

  /** Until when the runner's lease holds; null while no runner has taken the run. */
  @Column(name = "lease_expires_at")
  public OffsetDateTime leaseExpiresAt;
}
