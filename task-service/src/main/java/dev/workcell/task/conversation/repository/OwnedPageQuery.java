package dev.workcell.task.conversation.repository;

import dev.workcell.task.access.WorkSettingsEntity;
import dev.workcell.task.conversation.MessageEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * A page of the conversation as the owner reads it, in one prepared statement on the plain reactive
 * client: the caller's account and the access mode, the task's ownership and the page itself. The
 * busiest read costs one round trip instead of three and no ORM session. Contents leave the database
 * only when the access facts allow it; the caller still applies the rules to the facts returned.
 * The only page query: the task view's first page is read here too.
 */
@ApplicationScoped
public class OwnedPageQuery {

  // The facts row first (id null), then the page: one window gives each message its running size
  // and the id of the next older one, so the cut and "are there older ones" need neither a count
  // over the whole page nor a sort of its wide rows. Rows only leave the database when the facts
  // allow it and while the running size stays within the cap.
  static final String SQL = "with g as (" + OwnedTaskFacts.SQL + ")"
      + " select g.role as account_role, g.status, g.mode, g.owned, null::bigint as id, null::uuid as run_id,"
      + " null::text as role, null::text as content, null::text as tool_call_id, null::text as tool_calls,"
      + " null::boolean as sent_during_run, null::timestamptz as delivered_at, null::boolean as truncated,"
      + " null::timestamptz as created_at, null::bigint as running, null::bigint as older from g"
      + " union all select null, null, null, null, l.* from (select m.id, m.run_id, m.role, m.content,"
      + " m.tool_call_id, m.tool_calls, m.sent_during_run, m.delivered_at, m.truncated, m.created_at,"
      + " sum(" + MessageRepository.BYTES + ") over w as running, lead(m.id) over w as older from messages m"
      + " where m.task_id = $2 and m.id < $3::bigint and (select g.owned and g.status = 'active'"
      + " and (g.role = 'admin' or g.mode = '" + WorkSettingsEntity.USERS + "') from g)"
      + " window w as (order by m.id desc rows unbounded preceding) order by m.id desc limit $4::int) l"
      + " where l.running <= $5::bigint";

  /**
   * A message of a page with its running size (newest first) and whether an older message exists
   * below it, within the page or not.
   */
  public record PageRow(MessageEntity message, long runningBytes, boolean olderExists) {}

  /** What the database knows of the caller ({@code role} null: no such account) and the page rows. */
  public record Result(String role, String status, String mode, boolean owned, List<PageRow> rows) {}

  private final Pool pool;

  public OwnedPageQuery(Pool pool) {
    this.pool = pool;
  }

  /**
   * Up to {@code limit} messages of {@code taskId} older than {@code beforeId}, newest first and cut
   * where their running size passes {@code maxBytes}, if {@code accountId} owns the task.
   */
  public Uni<Result> read(UUID accountId, UUID taskId, long beforeId, int limit, long maxBytes) {
    return pool.preparedQuery(SQL).execute(Tuple.of(accountId, taskId, beforeId, limit, maxBytes)).map(rows -> {
      Row facts = null;
      List<PageRow> page = new ArrayList<>(rows.size());
      for (Row row : rows) {
        if (row.getValue("id") == null) {
          facts = row;
        } else {
          page.add(new PageRow(message(taskId, row), row.getLong("running"), row.getValue("older") != null));
        }
      }
      if (facts == null) {
        return new Result(null, null, null, false, List.of());
      }
      // A union keeps no order of its own.
      page.sort(Comparator.comparingLong((PageRow r) -> r.message().id).reversed());
      return new Result(facts.getString("account_role"), facts.getString("status"), facts.getString("mode"),
          Boolean.TRUE.equals(facts.getBoolean("owned")), page);
    });
  }

  /** A detached value: pages are read-only. */
  private static MessageEntity message(UUID taskId, Row row) {
    MessageEntity m = new MessageEntity();
    m.id = row.getLong("id");
    m.taskId = taskId;
    m.runId = row.getUUID("run_id");
    m.role = row.getString("role");
    m.content = row.getString("content");
    m.toolCallId = row.getString("tool_call_id");
    m.toolCalls = row.getString("tool_calls");
    m.sentDuringRun = row.getBoolean("sent_during_run");
    m.deliveredAt = row.getOffsetDateTime("delivered_at");
    m.truncated = row.getBoolean("truncated");
    m.createdAt = row.getOffsetDateTime("created_at");
    return m;
  }
}
