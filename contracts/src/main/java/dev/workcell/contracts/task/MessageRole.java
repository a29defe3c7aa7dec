package dev.workcell.contracts.task;

/** Who wrote a conversation message. Users post {@code user}; the runner appends the others. */
public enum MessageRole {
  USER,
  ASSISTANT,
  TOOL,
  SYSTEM;

  public String wire() {
    return name().toLowerCase();
  }

  public static MessageRole fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
