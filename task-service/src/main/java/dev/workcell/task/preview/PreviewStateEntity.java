package dev.workcell.task.preview;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of {@code previews}: the task's preview as sandbox-service last reported it. */
@Entity
@Table(name = "previews")
public class PreviewStateEntity extends PanacheEntityBase {

  @Id
  @Column(name = "task_id")
  public UUID taskId;

  /** starting, ready or stopped. */
  @Column(nullable = false)
  public String state;

  @Column(nullable = false)
  public long generation;

  @Column(name = "host_port")
  public Integer hostPort;

  public String command;

  @Column(name = "updated_at", nullable = false)
  public OffsetDateTime updatedAt;
}
