package dev.workcell.contracts.account;

import dev.workcell.contracts.Actor;

/** An account as other services see it. {@code status} is active or disabled. */
public record Account(String id, String username, Actor.Role role, String status) {

  public boolean active() {
    return "active".equals(status);
  }
}
