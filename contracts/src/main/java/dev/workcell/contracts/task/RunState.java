package dev.workcell.contracts.task;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;

/** The state of one run. At most one run per task is active (preparing or running). */
public enum RunState {
  PREPARING,
  RUNNING,
  COMPLETED,
  NEEDS_INPUT,
  CANCELLED,
  FAILED;

  /** The states the database's one-active-run index covers. */
  public static final List<RunState> ACTIVE = List.of(PREPARING, RUNNING);

  public boolean active() {
    return this == PREPARING || this == RUNNING;
  }

  /** The JSON value, on NATS and REST alike. */
  @JsonValue
  public String wire() {
    return name().toLowerCase();
  }

  /** Reads a wire value; an unknown value is an {@link IllegalArgumentException}. */
  @JsonCreator
  public static RunState fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
