package dev.workcell.contracts.task;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Where an approval stands: pending until the owner decides, a rule or the setting allows it, or it expires. */
public enum ApprovalState {
  PENDING,
  ALLOWED,
  DENIED,
  EXPIRED;

  /** The JSON value, on NATS and REST alike, and the stored column value. */
  @JsonValue
  public String wire() {
    return name().toLowerCase();
  }

  /** Reads a wire value; an unknown value is an {@link IllegalArgumentException}. */
  @JsonCreator
  public static ApprovalState fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
