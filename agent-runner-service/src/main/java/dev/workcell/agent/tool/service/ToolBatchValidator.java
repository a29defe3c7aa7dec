package dev.workcell.agent.tool.service;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.agent.provider.ToolSpec;
import dev.workcell.contracts.task.ToolCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a round's tool calls before any runs. One call with unknown name, arguments that are not a
 * complete JSON object (a stream cut off mid-argument), a missing required field or a wrong type
 * spoils the whole batch: later calls often depend on earlier ones, so running half is worse than none.
 */
public final class ToolBatchValidator {

  private final ObjectMapper mapper;

  public ToolBatchValidator(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** Either every call ready to run, or the reasons the batch was refused (one line per bad call). */
  public record Verdict(List<ToolInvocation> invocations, List<String> problems) {
    public boolean runnable() {
      return problems.isEmpty();
    }
  }

  public Verdict check(List<ToolCall> calls) {
    List<ToolInvocation> ready = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (ToolCall call : calls) {
      problem(call).ifPresentOrElse(p -> problems.add(call.name() + " (" + call.id() + "): " + p),
          () -> ready.add(new ToolInvocation(call, parse(call.arguments()))));
    }
    return problems.isEmpty() ? new Verdict(ready, List.of()) : new Verdict(List.of(), problems);
  }

  private Optional<String> problem(ToolCall call) {
    Optional<ToolSpec> spec = WorkspaceTools.ALL.stream().filter(t -> t.name().equals(call.name())).findFirst();
    if (spec.isEmpty()) {
      return Optional.of("unknown tool");
    }
    Map<String, Object> arguments;
    try {
      arguments = parse(call.arguments());
    } catch (IllegalArgumentException e) {
      return Optional.of("arguments are not a complete JSON object (truncated or malformed)");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> properties = (Map<String, Object>) spec.get().parameters().get("properties");
    @SuppressWarnings("unchecked")
    List<String> required = (List<String>) spec.get().parameters().getOrDefault("required", List.of());
    for (String name : required) {
      if (arguments.get(name) == null) {
        return Optional.of("missing required argument '" + name + "'");
      }
    }
    for (Map.Entry<String, Object> entry : arguments.entrySet()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> property = (Map<String, Object>) properties.get(entry.getKey());
      if (property == null || entry.getValue() == null) {
        continue; // unknown extras are ignored, as providers add their own at times
      }
      String type = (String) property.get("type");
      boolean fits = switch (type) {
        case "string" -> entry.getValue() instanceof String;
        case "integer" -> entry.getValue() instanceof Integer || entry.getValue() instanceof Long;
        case "boolean" -> entry.getValue() instanceof Boolean;
        default -> true;
      };
      if (!fits) {
        return Optional.of("argument '" + entry.getKey() + "' must be a " + type);
      }
    }
    return Optional.empty();
  }

  private Map<String, Object> parse(String json) {
    if (json == null || json.isBlank()) {
      return Map.of();
    }
    try {
      Map<String, Object> value = mapper.readValue(json, new TypeReference<Map<String, Object>>() {});
      if (value == null) {
        throw new IllegalArgumentException("null");
      }
      return value;
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
