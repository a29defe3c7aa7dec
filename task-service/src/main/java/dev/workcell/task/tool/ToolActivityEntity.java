package dev.workcell.task.tool;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of {@code tool_activity}: one tool call of a run, with its bounded output. */
@Entity
@Table(name = "tool_activity")
public class ToolActivityEntity extends PanacheEntityBase {

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  public Long id;

  @Column(name = "task_id", nullable = false, updatable = false)
  public UUID taskId;

  @Column(name = "run_id", nullable = false, updatable = false)
  public UUID runId;

  @Column(name = "tool_call_id", nullable = false, updatable = false)
  public String toolCallId;

  @Column(name = "tool_name", nullable = false)
  public String toolName;

  public String arguments;

  /** running, ok, error or denied. */
  @Column(nullable = false)
  public String status;

  public String output;

  @Column(name = "output_truncated", nullable = false)
  public boolean outputTruncated;

  @Column(name = "started_at", nullable = false, updatable = false)
  public OffsetDateTime startedAt;

  @Column(name = "finished_at")
  public OffsetDateTime finishedAt;
}
