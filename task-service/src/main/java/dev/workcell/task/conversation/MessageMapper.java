package dev.workcell.task.conversation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.ToolCall;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Entity ↔ contract record; tool calls travel as a list and are stored as JSON text. */
@ApplicationScoped
public class MessageMapper {

  private static final TypeReference<List<ToolCall>> TOOL_CALLS = new TypeReference<>() {};

  private final ObjectMapper json;

  public MessageMapper(ObjectMapper json) {
    this.json = json;
  }

  public MessageView toView(MessageEntity m) {
    return new MessageView(m.id, m.taskId.toString(), m.runId == null ? null : m.runId.toString(),
        MessageRole.fromWire(m.role), m.content,
        m.toolCallId, toolCalls(m), m.sentDuringRun, m.deliveredAt != null, m.truncated,
        m.createdAt == null ? null : m.createdAt.toInstant());
  }

  public List<ToolCall> toolCalls(MessageEntity m) {
    if (m.toolCalls == null) {
      return List.of();
    }
    try {
      return json.readValue(m.toolCalls, TOOL_CALLS);
    } catch (JsonProcessingException e) {
      return List.of();
    }
  }

  public String encodeToolCalls(List<ToolCall> calls) {
    if (calls == null || calls.isEmpty()) {
      return null;
    }
    try {
      return json.writeValueAsString(calls);
    } catch (JsonProcessingException e) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "tool calls cannot be stored");
    }
  }
}
