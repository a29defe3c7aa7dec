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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gemini {@code models/{model}:streamGenerateContent?alt=sse}. The system prompt goes in
 * {@code systemInstruction}; tools as {@code functionDeclarations}; calls come back as
 * {@code functionCall} parts and results go back as {@code functionResponse} parts (by name).
 * Parts marked {@code thought} are reasoning. The key travels in a header, never in the URL.
 * A {@code thoughtSignature} on a function call is kept here by call id and sent back with that
 * call, as thinking models require within the turn.
 */
public final class GeminiProvider extends HttpModelProvider {

  private final Map<String, String> signatures = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > MAX_SIGNATURES;
    }
  });

  private static final int MAX_SIGNATURES = 10_000;

  public GeminiProvider(String id, String baseUrl, Optional<String> apiKey, ProviderHttp http) {
    super(id, Set.of(ProviderKind.GEMINI), baseUrl, apiKey, http);
  }

  @Override
  public RoundResult stream(RoundRequest request, RoundListener listener) {
    String url = baseUrl + "/v1beta/models/" + URLEncoder.encode(request.model(), StandardCharsets.UTF_8)
        + ":streamGenerateContent?alt=sse";
    Assembly assembly = new Assembly(listener);
    streamEvents(url, keyHeader("x-goog-api-key", ""), body(request), assembly::chunk);
    return assembly.result();
  }

  private ObjectNode body(RoundRequest request) {
    ObjectNode body = http.mapper().createObjectNode();
    body.putObject("systemInstruction").putArray("parts").addObject().put("text", request.system());
    Map<String, String> names = ToolCallIds.namesById(request.messages());
    AlternatingTurns turns = new AlternatingTurns(body.putArray("contents"), "parts");
    for (ChatMessage message : request.messages()) {
      ArrayNode parts = turns.parts(message.role() == MessageRole.ASSISTANT ? "model" : "user");
      switch (message.role()) {
        case TOOL -> {
          ObjectNode response = parts.addObject().putObject("functionResponse");
          response.put("id", message.toolCallId());
          response.put("name", names.getOrDefault(message.toolCallId(), "unknown"));
          response.putObject("response").put("result", message.content());
        }
        case ASSISTANT -> {
          if (message.content() != null && !message.content().isBlank()) {
            parts.addObject().put("text", message.content());
          }
          for (ToolCall call : message.toolCalls()) {
            ObjectNode part = parts.addObject();
            String signature = signatures.get(call.id());
            if (signature != null) {
              part.put("thoughtSignature", signature);
            }
            ObjectNode functionCall = part.putObject("functionCall");
            functionCall.put("id", call.id()).put("name", call.name());
            functionCall.set("args", http.objectOrEmpty(call.arguments()));
          }
        }
        default -> parts.addObject().put("text", message.content());
      }
    }
    if (!request.tools().isEmpty()) {
      ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
      for (ToolSpec tool : request.tools()) {
        declare(declarations.addObject(), tool, "parameters");
      }
    }
    return body;
  }


  /** Folds the chunks of one streamed generation. */
  private final class Assembly extends RoundAssembly {
    private final List<ToolCall> calls = new ArrayList<>();

    Assembly(RoundListener listener) {
      super(listener);
    }

    void chunk(String data) {
      JsonNode chunk = json(data, "a chunk");
      if (chunk.has("error")) {
        throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "provider error: " + chunk.path("error").path("message").asText("unknown"));
      }
      for (JsonNode candidate : chunk.path("candidates")) {
        for (JsonNode part : candidate.path("content").path("parts")) {
          if (part.has("functionCall")) {
            JsonNode call = part.get("functionCall");
            String callId = call.hasNonNull("id") ? call.get("id").asText() : ToolCallIds.fresh();
            JsonNode args = call.path("args");
            calls.add(new ToolCall(callId, call.path("name").asText(), args.isMissingNode() ? "{}" : args.toString()));
            if (part.hasNonNull("thoughtSignature")) {
              signatures.put(callId, part.get("thoughtSignature").asText());
            }
          } else if (part.hasNonNull("text")) {
            String piece = part.get("text").asText();
            if (part.path("thought").asBoolean(false)) {
              streamed.reasoning(piece);
            } else {
              streamed.text(piece);
            }
          }
        }
        if (candidate.hasNonNull("finishReason")) {
          stop = candidate.get("finishReason").asText();
        }
      }
      JsonNode usage = chunk.path("usageMetadata");
      if (usage.isObject()) {
        input = usage.path("promptTokenCount").asLong(input);
        output = usage.path("candidatesTokenCount").asLong(output) + usage.path("thoughtsTokenCount").asLong(0);
      }
    }

    @Override
    protected List<ToolCall> calls() {
      return List.copyOf(calls);
    }
  }
}
