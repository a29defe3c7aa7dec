package dev.workcell.agent.run.service;

import dev.workcell.agent.provider.ChatMessage;
import dev.workcell.agent.provider.RoundResult;
import dev.workcell.agent.provider.ToolCallIds;
import dev.workcell.contracts.task.ToolCall;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps tool-call ids unique in a run's conversation. Some servers number calls per response
 * ({@code call_0}, {@code call_1}, … every round); task-service keys a run's tool activity by id,
 * so a repeat would merge two calls' records. A repeated, blank or overlong id is replaced by a
 * fresh one, which is also what goes back to the model, so its conversation stays consistent.
 */
final class RunToolCallIds {

  /** task-service's limit on a stored tool-call id. */
  private static final int MAX_ID_CHARS = 200;

  private final Set<String> seen = new HashSet<>();

  /** The ids already in the conversation (earlier runs' calls, from the context). */
  void seenIn(List<ChatMessage> messages) {
    messages.forEach(message -> message.toolCalls().forEach(call -> seen.add(call.id())));
  }

  RoundResult unique(RoundResult result) {
    List<ToolCall> calls = new ArrayList<>(result.toolCalls().size());
    boolean renamed = false;
    for (ToolCall call : result.toolCalls()) {
      String id = call.id();
      if (id == null || id.isBlank() || id.length() > MAX_ID_CHARS || !seen.add(id)) {
        do {
          id = ToolCallIds.fresh();
        } while (!seen.add(id));
        call = new ToolCall(id, call.name(), call.arguments());
        renamed = true;
      }
      calls.add(call);
    }
    return renamed ? new RoundResult(result.text(), result.reasoning(), calls, result.inputTokens(), result.outputTokens(),
        result.stopReason()) : result;
  }
}
