package dev.workcell.task.conversation.repository;

import dev.workcell.task.access.WorkSettingsEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowIterator;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * What decides whether an account may reach one of its tasks, in one prepared statement on the plain
 * reactive client: the account's role and status, the access mode and whether it owns the task. The
 * sandbox of a task is asked for before every file, command and Git request of Work, so it costs one
 * round trip and no ORM session; the caller applies the access rules to the facts.
 */
@ApplicationScoped
public class OwnedTaskFacts {

  /** The facts of account $1 and task $2; no row when the account does not exist. */
  static final String SQL = "select a.role, a.status, s.access_mode as mode,"
      + " exists (select 1 from tasks t where t.id = $2 and t.owner_id = a.id) as owned"
      + " from accounts a cross join work_settings s where a.id = $1 and s.id = " + WorkSettingsEntity.ID;

  /** {@code role} null: no such account. */
  public record Facts(String role, String status, String mode, boolean owned) {}

  private final Pool pool;

  public OwnedTaskFacts(Pool pool) {
    this.pool = pool;
  }

  public Uni<Facts> read(UUID accountId, UUID taskId) {
    return pool.preparedQuery(SQL).execute(Tuple.of(accountId, taskId)).map(rows -> {
      RowIterator<Row> it = rows.iterator();
      if (!it.hasNext()) {
        return new Facts(null, null, null, false);
      }
      Row row = it.next();
      return new Facts(row.getString("role"), row.getString("status"), row.getString("mode"),
          Boolean.TRUE.equals(row.getBoolean("owned")));
    });
  }
}
