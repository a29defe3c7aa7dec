package dev.workcell.agent.tool.service;

/** What a tool call returned to the model: {@code status} ok or error, the text, whether the tool cut it. */
public record ToolOutcome(String status, String output, boolean truncated) {

  public static ToolOutcome ok(String output, boolean truncated) {
    return new ToolOutcome("ok", output, truncated);
  }

  public static ToolOutcome error(String output) {
    return new ToolOutcome("error", output, false);
  }

  public boolean failed() {
    return !"ok".equals(status);
  }
}
