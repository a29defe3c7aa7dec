package dev.workcell.agent.provider;

import dev.workcell.contracts.task.ToolCall;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Tool-call id helpers for providers that send no ids (Ollama, older Gemini) or need names by id. */
public final class ToolCallIds {

  private ToolCallIds() {}

  public static String fresh() {
    return "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
  }

  /** Tool name of every call in the conversation, by id (a tool turn carries only the id). */
  public static Map<String, String> namesById(List<ChatMessage> messages) {
    Map<String, String> names = new HashMap<>();
    for (ChatMessage message : messages) {
      for (ToolCall call : message.toolCalls()) {
        names.put(call.id(), call.name());
      }
    }
    return names;
  }
}
