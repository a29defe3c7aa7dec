package dev.workcell.contracts.task;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The persistent state of a task; the UI folds them into Idle, Thinking, Done, Needs input and Error. */
public enum TaskState {
  IDLE,
  PREPARING,
  RUNNING,
  COMPLETED,
  NEEDS_INPUT,
  CANCELLED,
  FAILED;

  /** The JSON value, on NATS and REST alike. */
  @JsonValue
  public String wire() {
    return name().toLowerCase();
  }

  @JsonCreator
  public static TaskState fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
