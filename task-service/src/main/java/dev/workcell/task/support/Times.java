package dev.workcell.task.support;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Timestamps read by native queries arrive in whichever java.time type the driver chose. */
public final class Times {

  private Times() {}

  public static OffsetDateTime offset(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof OffsetDateTime t) {
      return t;
    }
    if (value instanceof Instant t) {
      return t.atOffset(ZoneOffset.UTC);
    }
    if (value instanceof LocalDateTime t) {
      return t.atOffset(ZoneOffset.UTC);
    }
    if (value instanceof java.sql.Timestamp t) {
      return t.toInstant().atOffset(ZoneOffset.UTC);
    }
    throw new IllegalArgumentException("not a timestamp: " + value.getClass());
  }
}
