package dev.workcell.agent.provider;

import java.util.List;

/** One model round: the system prompt, the conversation, and the tools (empty: answer in text only). */
public record RoundRequest(String model, String system, List<ChatMessage> messages, List<ToolSpec> tools) {}
