package dev.workcell.agent.provider;

import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.ToolCall;
import java.util.List;

/**
 * One conversation turn in the provider-neutral shape each adapter translates. {@code role}: user,
 * assistant or tool (never system: the system prompt travels apart); a tool turn answers
 * {@code toolCallId}, an assistant turn may carry tool calls.
 */
public record ChatMessage(MessageRole role, String content, List<ToolCall> toolCalls, String toolCallId) {

  public static ChatMessage user(String content) {
    return new ChatMessage(MessageRole.USER, content, List.of(), null);
  }

  public static ChatMessage assistant(String content, List<ToolCall> toolCalls) {
    return new ChatMessage(MessageRole.ASSISTANT, content, toolCalls == null ? List.of() : List.copyOf(toolCalls), null);
  }

  public static ChatMessage tool(String toolCallId, String content) {
    return new ChatMessage(MessageRole.TOOL, content, List.of(), toolCallId);
  }

  public boolean hasToolCalls() {
    return toolCalls != null && !toolCalls.isEmpty();
  }
}
