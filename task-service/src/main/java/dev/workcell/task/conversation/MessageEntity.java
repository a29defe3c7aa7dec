package dev.workcell.task.conversation;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A row of {@code messages}; {@code id} orders the conversation and is the paging cursor. */
@Entity
@Table(name = "messages")
public class MessageEntity extends PanacheEntityBase {

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  public Long id;

  @Column(name = "task_id", nullable = false, updatable = false)
  public UUID taskId;

  @Column(name = "run_id", updatable = false)
  public UUID runId;

  @Column(nullable = false, updatable = false)
  public String role;

  @Column(nullable = false, updatable = false)
  public String content;

  @Column(name = "tool_call_id", updatable = false)
  public String toolCallId;

  /** The assistant's tool calls as JSON text (a list of ToolCall). */
  @Column(name = "tool_calls", updatable = false)
  public String toolCalls;

  @Column(name = "sent_during_run", nullable = false, updatable = false)
  public boolean sentDuringRun;

  @Column(name = "delivered_at")
  public OffsetDateTime deliveredAt;

  @Column(nullable = false, updatable = false)
  public boolean truncated;

  @Column(name = "created_at", nullable = false, updatable = false)
  public OffsetDateTime createdAt;

  /** A row the runner's one-statement writes stored: what they sent plus the id and time they got back. */
  public static MessageEntity stored(long id, UUID taskId, UUID runId, String role, String content, boolean truncated,
      OffsetDateTime createdAt) {
    MessageEntity message = new MessageEntity();
    message.id = id;
    message.taskId = taskId;
    message.runId = runId;
    message.role = role;
    message.content = content;
    message.truncated = truncated;
    message.createdAt = createdAt;
    return message;
  }
}
