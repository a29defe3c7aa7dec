package dev.workcell.contracts;

import java.util.Objects;

/** Who a message acts for. Services never trust a task id without this. */
public record Actor(String accountId, Role role) {

  public enum Role {
    ADMIN,
    USER,
    /** A suite service or the operator's launcher acting on its own behalf. */
    SERVICE;

    public String wire() {
      return name().toLowerCase();
    }

    public static Role fromWire(String value) {
      return Role.valueOf(value.trim().toUpperCase());
    }
  }

  public Actor {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(role, "role");
    if (accountId.isBlank()) {
      throw new IllegalArgumentException("accountId is blank");
    }
  }

  public static Actor service(ServiceName service) {
    return new Actor("service:" + service.id(), Role.SERVICE);
  }

  public boolean isAdmin() {
    return role == Role.ADMIN;
  }
}
