package dev.workcell.contracts.task;

/** The persistent state of a task; the UI folds them into Idle, Thinking, Done, Needs input and Error. */
public enum TaskState {
  IDLE,
  PREPARING,
  RUNNING,
  COMPLETED,
  NEEDS_INPUT,
  CANCELLED,
  FAILED;

  public String wire() {
    return name().toLowerCase();
  }

  public static TaskState fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
