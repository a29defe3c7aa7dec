package dev.workcell.agent.provider.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workcell.agent.provider.ModelProvider;
import dev.workcell.agent.provider.RoundListener;
import dev.workcell.agent.provider.RoundResult;
import dev.workcell.agent.provider.ToolSpec;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.ToolCall;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the HTTP adapters share: id and served kinds, base URL and optional key, the server-sent-event
 * stream and the parsing of streamed JSON. Each subclass keeps its own wire format (body, headers,
 * how a chunk folds); only the plumbing that was the same in all of them lives here.
 */
abstract class HttpModelProvider implements ModelProvider {

  private final String id;
  private final Set<ProviderKind> kinds;
  protected final String baseUrl;
  protected final Optional<String> apiKey;
  protected final ProviderHttp http;

  HttpModelProvider(String id, Set<ProviderKind> kinds, String baseUrl, Optional<String> apiKey, ProviderHttp http) {
    this.id = id;
    this.kinds = Set.copyOf(kinds);
    this.baseUrl = ProviderHttp.withoutTrailingSlash(baseUrl);
    this.apiKey = apiKey;
    this.http = http;
  }

  @Override
  public final String id() {
    return id;
  }

  @Override
  public final boolean serves(ProviderKind kind) {
    return kinds.contains(kind);
  }

  /** The key in one header ({@code prefix} before it, e.g. "Bearer "), or no header without a key. */
  protected final Map<String, String> keyHeader(String name, String prefix) {
    return apiKey.map(key -> Map.of(name, prefix + key)).orElse(Map.of());
  }

  /** Posts {@code body} and hands the data of every server-sent event to {@code data}. */
  protected final void streamEvents(String url, Map<String, String> headers, ObjectNode body, Consumer<String> data) {
    SseDecoder sse = new SseDecoder((event, payload) -> data.accept(payload));
    http.streamLines(url, headers, body, sse);
    sse.finish();
  }

  /** A tool's name, description and JSON schema (under {@code schemaField}) on {@code node}. */
  protected final ObjectNode declare(ObjectNode node, ToolSpec tool, String schemaField) {
    node.put("name", tool.name()).put("description", tool.description());
    node.set(schemaField, http.mapper().valueToTree(tool.parameters()));
    return node;
  }

  /** Tools in the OpenAI function format, which Ollama speaks as well. */
  protected final void putFunctionTools(ObjectNode body, List<ToolSpec> tools) {
    var array = body.putArray("tools");
    for (ToolSpec tool : tools) {
      declare(array.addObject().put("type", "function").putObject("function"), tool, "parameters");
    }
  }

  /**
   * What one streamed answer folds into: text and reasoning (forwarded live), token counts and the
   * stop reason; the subclass adds how its chunks read and where its tool calls come from.
   */
  protected abstract class RoundAssembly {
    protected final StreamedText streamed;
    protected long input;
    protected long output;
    protected String stop;

    protected RoundAssembly(RoundListener listener) {
      this.streamed = new StreamedText(listener);
    }

    /** One streamed piece as JSON; a piece that is not JSON fails the round. */
    protected final JsonNode json(String data, String what) {
      try {
        return http.mapper().readTree(data);
      } catch (IOException e) {
        throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "the provider streamed " + what + " that is not JSON");
      }
    }

    protected abstract List<ToolCall> calls();

    RoundResult result() {
      return new RoundResult(streamed.text(), streamed.reasoning(), calls(), input, output, stop);
    }
  }
}
