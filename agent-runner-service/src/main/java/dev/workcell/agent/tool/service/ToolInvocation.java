package dev.workcell.agent.tool.service;

import dev.workcell.contracts.task.ToolCall;
import java.util.Map;

/** A tool call whose arguments parsed and passed the schema: ready to dispatch. */
public record ToolInvocation(ToolCall call, Map<String, Object> arguments) {

  public String name() {
    return call.name();
  }

  public String text(String key) {
    Object value = arguments.get(key);
    return value == null ? null : value.toString();
  }

  public Integer integer(String key) {
    Object value = arguments.get(key);
    return value instanceof Number number ? number.intValue() : null;
  }

  public boolean flag(String key) {
    return Boolean.TRUE.equals(arguments.get(key));
  }
}
