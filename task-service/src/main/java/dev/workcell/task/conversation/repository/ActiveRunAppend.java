package dev.workcell.task.conversation.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowIterator;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The runner's append, the hottest write: one autocommitted prepared statement on the plain
 * reactive client (no ORM session, no transaction round trips), so a message costs one round trip
 * and one WAL flush.
 */
@ApplicationScoped
public class ActiveRunAppend {

  // The run check and the insert are one statement, so a cancel cannot fall between them.
  private static final String SQL = "insert into messages (task_id, run_id, role, content, tool_call_id, tool_calls,"
      + " truncated) select r.task_id, r.id, $3, $4, $5, $6, $7 from runs r"
      + " where r.id = $2 and r.task_id = $1 and r.state in ('preparing', 'running')"
      + " returning id, created_at";

  private final Pool pool;

  public ActiveRunAppend(Pool pool) {
    this.pool = pool;
  }

  /** Appends to the run only while it is active: the new id and time, or null when it is not active. */
  public Uni<Object[]> append(UUID taskId, UUID runId, String role, String content, String toolCallId,
      String toolCalls, boolean truncated) {
    Tuple values = Tuple.tuple().addUUID(taskId).addUUID(runId).addString(role).addString(content)
        .addString(toolCallId).addString(toolCalls).addBoolean(truncated);
    return pool.preparedQuery(SQL).execute(values).map(rows -> {
      RowIterator<Row> it = rows.iterator();
      if (!it.hasNext()) {
        return null;
      }
      Row row = it.next();
      return new Object[] {row.getLong(0), row.getOffsetDateTime(1)};
    });
  }
}
