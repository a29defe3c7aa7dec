package dev.workcell.agent.provider;

import dev.workcell.contracts.task.ToolCall;
import java.util.List;

/**
 * What one round produced. {@code toolCalls} keep the provider's order; an argument string that is
 * not complete JSON stays as sent so the loop can refuse the batch. {@code stopReason} is the
 * provider's own word for why it stopped (length, max_tokens, …).
 */
public record RoundResult(String text, String reasoning, List<ToolCall> toolCalls, long inputTokens, long outputTokens,
    String stopReason) {

  public boolean hasToolCalls() {
    return !toolCalls.isEmpty();
  }
}
