package dev.workcell.task.run.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.ModelContext;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.task.conversation.MessageEntity;
import dev.workcell.task.conversation.MessageMapper;
import dev.workcell.task.conversation.repository.MessageRepository;
import dev.workcell.task.conversation.repository.MessageRepository.Meta;
import dev.workcell.task.conversation.RunEntity;
import dev.workcell.task.support.Text;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a provider receives of the conversation: the last 30 user/assistant messages, at most
 * 256 kB together with the tool results between them. A tool result whose assistant call fell out
 * of the window is dropped: providers refuse a result without its call.
 */
@ApplicationScoped
public class ModelContextBuilder {

  private static final int BATCH = 256;

  private final MessageRepository messages;
  private final MessageMapper mapper;

  public ModelContextBuilder(MessageRepository messages, MessageMapper mapper) {
    this.messages = messages;
    this.mapper = mapper;
  }

  /**
   * The context of the run, in the caller's transaction. The messages posted during the run are marked
   * delivered first (read-only for the reply): they are in it.
   */
  public Uni<ModelContext> read(RunEntity run, OffsetDateTime now) {
    return markDelivered(run, now)
        .chain(() -> window(run, new Window(), Long.MAX_VALUE))
        .chain(window -> messages.byIds(window.ids))
        .map(rows -> build(run, rows));
  }

  /** Walks the conversation newest first, one metadata batch at a time, until a cap is reached. */
  private Uni<Window> window(RunEntity run, Window window, long before) {
    return messages.metaBefore(run.taskId, before, BATCH, true).chain(batch -> {
      for (Meta row : batch) {
        boolean conversational = MessageRole.fromWire(row.role()) != MessageRole.TOOL;
        if (conversational && window.conversational == Limits.CONTEXT_MAX_MESSAGES
            || window.bytes + row.bytes() > Limits.CONTEXT_MAX_BYTES) {
          return Uni.createFrom().item(window.reverse());
        }
        window.ids.add(row.id());
        window.bytes += row.bytes();
        if (conversational) {
          window.conversational++;
        }
      }
      if (batch.size() < BATCH) {
        return Uni.createFrom().item(window.reverse());
      }
      return window(run, window, batch.get(batch.size() - 1).id());
    });
  }

  private ModelContext build(RunEntity run, List<MessageEntity> rows) {
    Set<String> calls = new HashSet<>();
    List<MessageView> kept = new ArrayList<>(rows.size());
    long bytes = 0;
    int dropped = 0;
    for (MessageEntity row : rows) {
      if (MessageRole.TOOL.wire().equals(row.role) && (row.toolCallId == null || !calls.contains(row.toolCallId))) {
        dropped++;
        continue;
      }
      MessageView view = mapper.toView(row);
      for (ToolCall call : view.toolCalls()) {
        calls.add(call.id());
      }
      kept.add(view);
      bytes += Text.utf8Length(row.content)
          + (row.toolCalls == null ? 0 : Text.utf8Length(row.toolCalls));
    }
    return new ModelContext(run.taskId.toString(), run.id.toString(), RunState.fromWire(run.state), kept, bytes, dropped);
  }

  /** The messages posted during this run are part of the context now, so the next round skips them. */
  private Uni<Void> markDelivered(RunEntity run, OffsetDateTime now) {
    return messages.lockUndelivered(run.id).invoke(found -> found.forEach(m -> m.deliveredAt = now)).replaceWithVoid();
  }

  private static final class Window {
    final List<Long> ids = new ArrayList<>();
    long bytes;
    int conversational;

    Window reverse() {
      Collections.reverse(ids);
      return this;
    }
  }
}
