package dev.workcell.task.account;

import dev.workcell.contracts.Actor;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of {@code accounts}; stays inside task-service (others see {@code contracts.account.Account}). */
@Entity
@Table(name = "accounts")
public class AccountEntity extends PanacheEntityBase {

  @Id
  public UUID id;

  @Column(nullable = false, unique = true)
  public String username;

  /** admin or user: the wire name of {@link #storedRole()}. */
  @Column(nullable = false)
  public String role;

  /** active or disabled. */
  @Column(nullable = false)
  public String status;

  @Column(name = "created_at", nullable = false)
  public OffsetDateTime createdAt;

  public Actor.Role storedRole() {
    return Actor.Role.fromWire(role);
  }
}
