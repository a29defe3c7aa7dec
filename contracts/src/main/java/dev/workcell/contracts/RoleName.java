package dev.workcell.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * An actor's role as the task records on NATS spell it (SetRole, TicketGrant, the audit log): the
 * lowercase name of the Workcell-Account-Role header and of the stored columns. {@link Actor.Role}
 * itself is written as its constant name ("ADMIN") in {@code Account}, which {@code /api/auth/me}
 * shows; a wire enum of its own keeps both public spellings as they were.
 */
public enum RoleName {
  ADMIN(Actor.Role.ADMIN),
  USER(Actor.Role.USER),
  SERVICE(Actor.Role.SERVICE);

  private final Actor.Role role;

  RoleName(Actor.Role role) {
    this.role = role;
  }

  public Actor.Role role() {
    return role;
  }

  public static RoleName of(Actor.Role role) {
    return valueOf(role.name());
  }

  /** The JSON value: admin, user or service. */
  @JsonValue
  public String wire() {
    return role.wire();
  }

  /** Reads a wire value by its exact name; anything else is an {@link IllegalArgumentException}. */
  @JsonCreator
  public static RoleName fromWire(String value) {
    for (RoleName name : values()) {
      if (name.wire().equals(value)) {
        return name;
      }
    }
    throw new IllegalArgumentException("not a role: " + value);
  }
}
