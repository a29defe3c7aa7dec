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
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * OpenAI-compatible chat completions ({@code POST {base}/chat/completions}, {@code stream: true}).
 * Streamed {@code tool_calls} deltas are assembled by their {@code index}; {@code reasoning_content}
 * (DeepSeek, vLLM) and {@code reasoning} (OpenRouter, Ollama's compatibility layer) become reasoning.
 */
public final class OpenAiChatProvider extends HttpModelProvider {

  public OpenAiChatProvider(String id, String baseUrl, Optional<String> apiKey, ProviderHttp http) {
    super(id, Set.of(ProviderKind.OPENAI), baseUrl, apiKey, http);
  }

  @Override
  public RoundResult stream(RoundRequest request, RoundListener listener) {
    Assembly assembly = new Assembly(listener);
    streamEvents(baseUrl + "/chat/completions", keyHeader("Authorization", "Bearer "), body(request), assembly::chunk);
    return assembly.result();
  }

  private ObjectNode body(RoundRequest request) {
    ObjectNode body = http.mapper().createObjectNode();
    body.put("model", request.model());
    body.put("stream", true);
    body.putObject("stream_options").put("include_usage", true);
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", request.system());
    for (ChatMessage message : request.messages()) {
      ObjectNode node = messages.addObject().put("role", message.role().wire());
      switch (message.role()) {
        case TOOL -> node.put("tool_call_id", message.toolCallId()).put("content", message.content());
        case ASSISTANT -> {
          node.put("content", message.content() == null ? "" : message.content());
          if (message.hasToolCalls()) {
            ArrayNode calls = node.putArray("tool_calls");
            for (ToolCall call : message.toolCalls()) {
              calls.addObject().put("id", call.id()).put("type", "function")
                  .putObject("function").put("name", call.name()).put("arguments", call.arguments());
            }
          }
        }
        default -> node.put("content", message.content());
      }
    }
    if (!request.tools().isEmpty()) {
      putFunctionTools(body, request.tools());
      body.put("tool_choice", "auto");
    }
    return body;
  }

  /** Folds the chunks of one streamed completion. */
  private final class Assembly extends RoundAssembly {
    private final TreeMap<Integer, PartialCall> calls = new TreeMap<>();

    Assembly(RoundListener listener) {
      super(listener);
    }

    void chunk(String data) {
      if (data.equals("[DONE]")) {
        return;
      }
      JsonNode chunk = json(data, "a chunk");
      if (chunk.has("error")) {
        throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "provider error: " + chunk.path("error").path("message").asText(chunk.path("error").toString()));
      }
      JsonNode usage = chunk.path("usage");
      if (usage.isObject()) {
        input = usage.path("prompt_tokens").asLong(input);
        output = usage.path("completion_tokens").asLong(output);
      }
      for (JsonNode choice : chunk.path("choices")) {
        JsonNode delta = choice.path("delta");
        String thought = delta.path("reasoning_content").asText(delta.path("reasoning").asText(""));
        if (!thought.isEmpty()) {
          streamed.reasoning(thought);
        }
        String content = delta.path("content").asText("");
        if (!content.isEmpty() && !delta.path("content").isNull()) {
          streamed.text(content);
        }
        for (JsonNode call : delta.path("tool_calls")) {
          int index = call.path("index").asInt(calls.size());
          PartialCall partial = calls.computeIfAbsent(index, i -> new PartialCall());
          if (call.hasNonNull("id")) {
            partial.id = call.get("id").asText();
          }
          JsonNode function = call.path("function");
          if (function.hasNonNull("name")) {
            partial.name.append(function.get("name").asText());
          }
          if (function.hasNonNull("arguments")) {
            partial.arguments.append(function.get("arguments").asText());
          }
        }
        if (choice.hasNonNull("finish_reason")) {
          stop = choice.get("finish_reason").asText();
        }
      }
    }

    @Override
    protected List<ToolCall> calls() {
      List<ToolCall> toolCalls = new ArrayList<>();
      for (PartialCall call : calls.values()) {
        String args = call.arguments.isEmpty() ? "{}" : call.arguments.toString();
        toolCalls.add(new ToolCall(call.id == null ? ToolCallIds.fresh() : call.id, call.name.toString(), args));
      }
      return toolCalls;
    }
  }

  private static final class PartialCall {
    String id;
    final StringBuilder name = new StringBuilder();
    final StringBuilder arguments = new StringBuilder();
  }
}
