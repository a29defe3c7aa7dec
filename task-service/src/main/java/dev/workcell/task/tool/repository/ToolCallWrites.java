package dev.workcell.task.tool.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The runner's two writes per tool call, each one autocommitted statement on the plain reactive
 * client: at the start the Activity record (running); at the end its result together with the tool
 * message that answers the call, so the Activity view and the conversation never disagree. Both
 * check in the same statement that the run is active, so a cancel cannot fall between.
 */
@ApplicationScoped
public class ToolCallWrites {

  private static final String ACTIVE_RUN = "select id, task_id from runs where id = $2 and task_id = $1"
      + " and state in ('preparing', 'running')";

  private static final String START = "with r as (" + ACTIVE_RUN + "),"
      + " a as (insert into tool_activity (task_id, run_id, tool_call_id, tool_name, arguments, status)"
      + " select r.task_id, r.id, $3, $4, $5, 'running' from r on conflict (run_id, tool_call_id) do nothing"
      + " returning id, started_at)"
      + " select (select count(*) from r), a.id, a.started_at from (select 1) one left join a on true";

  // A call that never started (denied, not run) gets its record here; a finished one is not overwritten.
  private static final String FINISH = "with r as (" + ACTIVE_RUN + "),"
      + " a as (insert into tool_activity (task_id, run_id, tool_call_id, tool_name, arguments, status, output,"
      + " output_truncated, finished_at) select r.task_id, r.id, $3, $4, $5, $6, $7, $8, now() from r"
      + " on conflict (run_id, tool_call_id) do update set tool_name = excluded.tool_name,"
      + " arguments = coalesce(excluded.arguments, tool_activity.arguments), status = excluded.status,"
      + " output = excluded.output, output_truncated = excluded.output_truncated, finished_at = excluded.finished_at"
      + " where tool_activity.status = 'running' returning id, started_at, finished_at),"
      + " m as (insert into messages (task_id, run_id, role, content, tool_call_id, truncated)"
      + " select r.task_id, r.id, 'tool', $9, $3, $10 from r where exists (select 1 from a) returning id, created_at)"
      + " select (select count(*) from r), a.id, a.started_at, a.finished_at, m.id, m.created_at"
      + " from (select 1) one left join a on true left join m on true";

  private final Pool pool;

  public ToolCallWrites(Pool pool) {
    this.pool = pool;
  }

  /**
   * What a write stored: whether the run was active, and the Activity record's id and times (null when
   * the call already had that record); after a finish also the tool message's id and time.
   */
  public record Stored(boolean active, Long activityId, OffsetDateTime startedAt, OffsetDateTime finishedAt, Long messageId,
      OffsetDateTime messageAt) {}

  public Uni<Stored> start(UUID taskId, UUID runId, String toolCallId, String toolName, String arguments) {
    Tuple values = Tuple.tuple().addUUID(taskId).addUUID(runId).addString(toolCallId).addString(toolName).addString(arguments);
    return pool.preparedQuery(START).execute(values).map(rows -> {
      Row row = rows.iterator().next();
      return new Stored(row.getLong(0) > 0, row.getLong(1), row.getOffsetDateTime(2), null, null, null);
    });
  }

  public Uni<Stored> finish(UUID taskId, UUID runId, String toolCallId, String toolName, String arguments, String status,
      String output, boolean outputTruncated, String message, boolean messageTruncated) {
    Tuple values = Tuple.tuple().addUUID(taskId).addUUID(runId).addString(toolCallId).addString(toolName).addString(arguments)
        .addString(status).addString(output).addBoolean(outputTruncated).addString(message).addBoolean(messageTruncated);
    return pool.preparedQuery(FINISH).execute(values).map(rows -> {
      Row row = rows.iterator().next();
      return new Stored(row.getLong(0) > 0, row.getLong(1), row.getOffsetDateTime(2), row.getOffsetDateTime(3), row.getLong(4),
          row.getOffsetDateTime(5));
    });
  }
}
