package dev.workcell.agent.run.service;

import dev.workcell.agent.provider.ChatMessage;
import dev.workcell.contracts.task.MessageView;
import java.util.ArrayList;
import java.util.List;

/** Stored messages to provider turns. System notes in the conversation are for people, not the model. */
final class ConversationMapper {

  private ConversationMapper() {}

  static List<ChatMessage> toChat(List<MessageView> messages) {
    List<ChatMessage> chat = new ArrayList<>();
    for (MessageView message : messages) {
      if (message.role() == null) {
        continue;
      }
      switch (message.role()) {
        case USER -> chat.add(ChatMessage.user(message.content()));
        case ASSISTANT -> chat.add(ChatMessage.assistant(message.content(), message.toolCalls()));
        case TOOL -> chat.add(ChatMessage.tool(message.toolCallId(), message.content()));
        case SYSTEM -> { }
      }
    }
    return chat;
  }
}
