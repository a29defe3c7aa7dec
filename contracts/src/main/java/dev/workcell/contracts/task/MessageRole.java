package dev.workcell.contracts.task;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Who wrote a conversation message. Users post {@code user}; the runner appends the others. */
public enum MessageRole {
  USER,
  ASSISTANT,
  TOOL,
  SYSTEM;

  /** The JSON value, on NATS and REST alike. */
  @JsonValue
  public String wire() {
    return name().toLowerCase();
  }

  @JsonCreator
  public static MessageRole fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
