package dev.workcell.task.audit;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of the append-only {@code audit_log} (a trigger refuses updates and deletes). */
@Entity
@Table(name = "audit_log")
public class AuditEntryEntity extends PanacheEntityBase {

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  public Long id;

  @Column(nullable = false, insertable = false, updatable = false)
  public OffsetDateTime at;

  @Column(name = "actor_id", nullable = false, updatable = false)
  public String actorId;

  @Column(name = "actor_role", nullable = false, updatable = false)
  public String actorRole;

  @Column(nullable = false, updatable = false)
  public String action;

  @Column(name = "task_id", updatable = false)
  public UUID taskId;

  @Column(updatable = false)
  public String detail;
}
