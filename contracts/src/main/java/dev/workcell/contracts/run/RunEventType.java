package dev.workcell.contracts.run;

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

  public String wire() {
    return name().toLowerCase();
  }
}
