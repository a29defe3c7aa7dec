package dev.workcell.task.conversation.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowIterator;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The runner's round, its hottest write: the usage and the assistant message in one autocommitted
 * prepared statement on the plain reactive client (no ORM session, no transaction round trips), so
 * a round costs one round trip and one WAL flush, and its usage and message are stored together or
 * not at all.
 */
@ApplicationScoped
public class ActiveRunAppend {

  // The run check, the usage and the insert are one statement, so a cancel cannot fall between them.
  private static final String ROUND = "with r as (update runs set input_tokens = input_tokens + $3,"
      + " output_tokens = output_tokens + $4, rounds = rounds + 1, tool_calls = tool_calls + $5"
      + " where id = $2 and task_id = $1 and state in ('preparing', 'running') returning id, task_id),"
      + " m as (insert into messages (task_id, run_id, role, content, tool_calls, truncated)"
      + " select r.task_id, r.id, 'assistant', $6, $7, $8 from r where $6::text is not null returning id, created_at)"
      + " select (select count(*) from r), m.id, m.created_at from (select 1) one left join m on true";

  private final Pool pool;

  public ActiveRunAppend(Pool pool) {
    this.pool = pool;
  }

  /** What a round stored: whether the run was active, and its message's id and time (null without text). */
  public record Stored(boolean active, Long messageId, OffsetDateTime createdAt) {}

  /** Adds a round's usage to the active run and, unless {@code content} is null, appends its assistant message. */
  public Uni<Stored> round(UUID taskId, UUID runId, long inputTokens, long outputTokens, int toolCalls, String content,
      String encodedToolCalls, boolean truncated) {
    Tuple values = Tuple.tuple().addUUID(taskId).addUUID(runId).addLong(inputTokens).addLong(outputTokens)
        .addInteger(toolCalls).addString(content).addString(encodedToolCalls).addBoolean(truncated);
    return pool.preparedQuery(ROUND).execute(values).map(rows -> {
      RowIterator<Row> it = rows.iterator();
      Row row = it.next();
      return new Stored(row.getLong(0) > 0, row.getLong(1), row.getOffsetDateTime(2));
    });
  }
}
