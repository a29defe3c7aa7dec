package dev.workcell.contracts.task;

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

  public String wire() {
    return name().toLowerCase();
  }

  /** Reads a wire value; an unknown value is an {@link IllegalArgumentException}. */
  public static RunState fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
