package dev.workcell.agent.provider.client;

import dev.workcell.agent.provider.ChatMessage;
import dev.workcell.agent.provider.RoundListener;
import dev.workcell.agent.provider.RoundRequest;
import dev.workcell.agent.provider.RoundResult;
import dev.workcell.agent.provider.ToolCallIds;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Ollama {@code /api/chat} with NDJSON streaming. Before the first round {@code /api/show} must list
 * {@code tools} among the model's capabilities, else the run is refused ({@code model_lacks_tools}).
 * Tool-call arguments arrive as JSON objects and usually whole, without ids; ids are made here.
 * Cloud models ({@code :cloud}/{@code -cloud}) go through the same Ollama, explicitly routed.
 */
public final class OllamaChatProvider extends HttpModelProvider {

  public OllamaChatProvider(String id, String baseUrl, Optional<String> apiKey, ProviderHttp http) {
    super(id, Set.of(ProviderKind.OLLAMA, ProviderKind.OLLAMA_CLOUD), baseUrl, apiKey, http);
  }

  @Override
  public void checkModel(String model) {
    JsonNode show = http.postJson(baseUrl + "/api/show", headers(), Map.of("model", model));
    for (JsonNode capability : show.path("capabilities")) {
      if (capability.asText().equals("tools")) {
        return;
      }
    }
    throw new WorkcellException(ErrorCode.MODEL_LACKS_TOOLS, "the Ollama model " + model + " does not advertise tools");
  }

  @Override
  public RoundResult stream(RoundRequest request, RoundListener listener) {
    Assembly assembly = new Assembly(listener);
    http.streamLines(baseUrl + "/api/chat", headers(), body(request), assembly::line);
    return assembly.result();
  }

  private Map<String, String> headers() {
    return keyHeader("Authorization", "Bearer ");
  }

  private ObjectNode body(RoundRequest request) {
    ObjectNode body = http.mapper().createObjectNode();
    body.put("model", request.model());
    body.put("stream", true);
    Map<String, String> names = ToolCallIds.namesById(request.messages());
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", request.system());
    for (ChatMessage message : request.messages()) {
      ObjectNode node = messages.addObject().put("role", message.role().wire()).put("content", message.content() == null ? "" : message.content());
      if (message.role() == MessageRole.TOOL && names.containsKey(message.toolCallId())) {
        node.put("tool_name", names.get(message.toolCallId()));
      }
      if (message.hasToolCalls()) {
        ArrayNode calls = node.putArray("tool_calls");
        for (ToolCall call : message.toolCalls()) {
          ObjectNode function = calls.addObject().putObject("function").put("name", call.name());
          function.set("arguments", http.objectOrEmpty(call.arguments()));
        }
      }
    }
    if (!request.tools().isEmpty()) {
      putFunctionTools(body, request.tools());
    }
    return body;
  }


  /** Folds the NDJSON lines of one streamed chat answer. */
  private final class Assembly extends RoundAssembly {
    private final List<ToolCall> calls = new ArrayList<>();

    Assembly(RoundListener listener) {
      super(listener);
    }

    void line(String line) {
      if (line.isBlank()) {
        return;
      }
      JsonNode chunk = json(line, "a line");
      if (chunk.hasNonNull("error")) {
        throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "provider error: " + chunk.get("error").asText());
      }
      JsonNode message = chunk.path("message");
      String thought = message.path("thinking").asText("");
      if (!thought.isEmpty()) {
        streamed.reasoning(thought);
      }
      String content = message.path("content").asText("");
      if (!content.isEmpty()) {
        streamed.text(content);
      }
      for (JsonNode call : message.path("tool_calls")) {
        JsonNode function = call.path("function");
        JsonNode arguments = function.path("arguments");
        // Arguments are an object; a string (some proxies) is passed on as sent for the loop to judge.
        String json = arguments.isTextual() ? arguments.asText() : arguments.isMissingNode() ? "{}" : arguments.toString();
        String callId = call.hasNonNull("id") ? call.get("id").asText() : ToolCallIds.fresh();
        calls.add(new ToolCall(callId, function.path("name").asText(), json));
      }
      if (chunk.path("done").asBoolean(false)) {
        input = chunk.path("prompt_eval_count").asLong(0);
        output = chunk.path("eval_count").asLong(0);
        stop = chunk.path("done_reason").asText(null);
      }
    }

    @Override
    protected List<ToolCall> calls() {
      return List.copyOf(calls);
    }
  }
}
