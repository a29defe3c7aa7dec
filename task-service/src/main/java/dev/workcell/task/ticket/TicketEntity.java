package dev.workcell.task.ticket;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of {@code ws_tickets}: the SHA-256 of a one-time ticket, never the ticket itself. */
@Entity
@Table(name = "ws_tickets")
public class TicketEntity extends PanacheEntityBase {

  @Id
  public UUID id;

  @Column(name = "token_hash", nullable = false, unique = true, updatable = false)
  public String tokenHash;

  @Column(nullable = false, updatable = false)
  public String audience;

  @Column(name = "task_id", nullable = false, updatable = false)
  public UUID taskId;

  @Column(name = "account_id", nullable = false, updatable = false)
  public UUID accountId;

  @Column(name = "created_at", nullable = false, updatable = false)
  public OffsetDateTime createdAt;

  @Column(name = "expires_at", nullable = false, updatable = false)
  public OffsetDateTime expiresAt;

  @Column(name = "consumed_at")
  public OffsetDateTime consumedAt;
}
