package dev.workcell.contracts.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The live events of a run, in the order a client may see them. */
public enum RunEventType {
  RUN_STATE,
  REASONING_DELTA,
  ASSISTANT_DELTA,
  TOOL_CALL,
  TOOL_RESULT,
  USAGE,
  SKILL_LOADED,
  ERROR,
  DONE;

  /** The JSON value, on NATS and REST alike. */
  @JsonValue
  public String wire() {
    return name().toLowerCase();
  }

  /** Reads a wire value; an unknown value is an {@link IllegalArgumentException}. */
  @JsonCreator
  public static RunEventType fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
