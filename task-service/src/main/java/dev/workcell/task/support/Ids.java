package dev.workcell.task.support;

import java.util.Optional;
import java.util.UUID;

/** Ids arrive as text from untrusted callers; a malformed one simply names nothing. */
public final class Ids {

  private Ids() {}

  public static Optional<UUID> parse(String value) {
    if (value == null || value.length() != 36) {
      return Optional.empty();
    }
    try {
      return Optional.of(UUID.fromString(value));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  public static String text(UUID id) {
    return id == null ? null : id.toString();
  }
}
