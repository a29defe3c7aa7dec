package dev.workcell.agent.provider.client;

import dev.workcell.agent.provider.ChatMessage;
import dev.workcell.agent.provider.RoundListener;
import dev.workcell.agent.provider.RoundRequest;
import dev.workcell.agent.provider.RoundResult;
import dev.workcell.agent.provider.ToolCallIds;
import dev.workcell.agent.provider.ToolSpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.ToolCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Anthropic messages ({@code POST {base}/v1/messages}, {@code stream: true}). Streams
 * {@code content_block_start/delta/stop}: text deltas, {@code tool_use} blocks whose input arrives as
 * {@code input_json_delta} fragments, and {@code thinking} blocks (shown as reasoning). Tool results
 * go back as {@code tool_result} blocks in one user turn, as the API requires.
 */
public final class AnthropicMessagesProvider extends HttpModelProvider {

  static final String API_VERSION = "2023-06-01";

  private final int maxTokens;

  public AnthropicMessagesProvider(String id, String baseUrl, Optional<String> apiKey, int maxTokens, ProviderHttp http) {
    super(id, Set.of(ProviderKind.ANTHROPIC), baseUrl, apiKey, http);
    this.maxTokens = maxTokens;
  }

  @Override
  public RoundResult stream(RoundRequest request, RoundListener listener) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("anthropic-version", API_VERSION);
    headers.putAll(keyHeader("x-api-key", ""));
    Assembly assembly = new Assembly(listener);
    streamEvents(baseUrl + "/v1/messages", headers, body(request), assembly::event);
    return assembly.result();
  }

  private ObjectNode body(RoundRequest request) {
    ObjectNode body = http.mapper().createObjectNode();
    body.put("model", request.model());
    body.put("max_tokens", maxTokens);
    body.put("stream", true);
    body.put("system", request.system());
    AlternatingTurns turns = new AlternatingTurns(body.putArray("messages"), "content");
    for (ChatMessage message : request.messages()) {
      ArrayNode content = turns.parts(message.role() == MessageRole.ASSISTANT ? "assistant" : "user");
      switch (message.role()) {
        case TOOL -> content.addObject().put("type", "tool_result").put("tool_use_id", message.toolCallId())
            .put("content", message.content());
        case ASSISTANT -> {
          if (message.content() != null && !message.content().isBlank()) {
            content.addObject().put("type", "text").put("text", message.content());
          }
          for (ToolCall call : message.toolCalls()) {
            ObjectNode use = content.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name());
            use.set("input", http.objectOrEmpty(call.arguments()));
          }
        }
        default -> content.addObject().put("type", "text").put("text", message.content());
      }
    }
    if (!request.tools().isEmpty()) {
      ArrayNode tools = body.putArray("tools");
      for (ToolSpec tool : request.tools()) {
        declare(tools.addObject(), tool, "input_schema");
      }
    }
    return body;
  }


  /** Folds the events of one streamed message. */
  private final class Assembly extends RoundAssembly {
    private final Map<Integer, Block> blocks = new LinkedHashMap<>();

    Assembly(RoundListener listener) {
      super(listener);
    }

    void event(String data) {
      JsonNode event = json(data, "an event");
      switch (event.path("type").asText()) {
        case "message_start" -> {
          JsonNode usage = event.path("message").path("usage");
          input = usage.path("input_tokens").asLong(0) + usage.path("cache_read_input_tokens").asLong(0)
              + usage.path("cache_creation_input_tokens").asLong(0);
          output = usage.path("output_tokens").asLong(0);
        }
        case "content_block_start" -> {
          JsonNode block = event.path("content_block");
          Block started = new Block(block.path("type").asText(), block.path("id").asText(null), block.path("name").asText(null));
          blocks.put(event.path("index").asInt(), started);
          String initial = block.path("text").asText("");
          if (!initial.isEmpty()) {
            streamed.text(initial);
          }
        }
        case "content_block_delta" -> delta(event.path("index").asInt(), event.path("delta"));
        case "message_delta" -> {
          stop = event.path("delta").path("stop_reason").asText(stop);
          output = event.path("usage").path("output_tokens").asLong(output);
        }
        case "error" -> throw new WorkcellException(ErrorCode.PROVIDER_ERROR,
            "provider error: " + event.path("error").path("message").asText("unknown"));
        default -> { } // ping, content_block_stop, message_stop: nothing to fold
      }
    }

    private void delta(int index, JsonNode delta) {
      switch (delta.path("type").asText()) {
        case "text_delta" -> {
          String piece = delta.path("text").asText("");
          streamed.text(piece);
        }
        case "thinking_delta" -> {
          String piece = delta.path("thinking").asText("");
          streamed.reasoning(piece);
        }
        case "input_json_delta" -> {
          Block block = blocks.get(index);
          if (block != null) {
            block.json.append(delta.path("partial_json").asText(""));
          }
        }
        default -> { } // signature_delta: the signature only matters when thinking is sent back
      }
    }

    @Override
    protected List<ToolCall> calls() {
      List<ToolCall> calls = new ArrayList<>();
      for (Block block : blocks.values()) {
        if (block.type.equals("tool_use")) {
          calls.add(new ToolCall(block.id == null ? ToolCallIds.fresh() : block.id, block.name,
              block.json.isEmpty() ? "{}" : block.json.toString()));
        }
      }
      return calls;
    }
  }

  private static final class Block {
    final String type;
    final String id;
    final String name;
    final StringBuilder json = new StringBuilder();

    Block(String type, String id, String name) {
      this.type = type;
      this.id = id;
      this.name = name;
    }
  }
}
