package dev.workcell.task.conversation.repository;

import dev.workcell.contracts.Actor;
import dev.workcell.task.access.WorkSettingsEntity;
import dev.workcell.task.conversation.MessageEntity;
import dev.workcell.task.conversation.RunEntity;
import dev.workcell.task.conversation.TaskEntity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowIterator;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import java.util.function.Function;

/**
 * The statements of the create transaction, on the plain reactive client: a person waits on every
 * create, and through the ORM each of its statements cost a session's bookkeeping on top of the
 * round trip. Every statement is prepared once per connection; parameters carry their casts
 * because an insert's select list gives PostgreSQL no column to infer them from.
 */
@ApplicationScoped
public class TaskCreateStatements {

  /** What the database knows of the caller; {@code role} null: no such account. */
  public record AccessRow(String role, String status, String mode) {}

  /** The facts of a runtime policy a new task takes over. */
  public record PolicyFacts(UUID id, boolean networkEnabled, boolean requireApproval) {}

  private static final String LOCK_AND_ACCESS = "select a.role, a.status, s.access_mode from accounts a"
      + " cross join work_settings s cross join (select pg_advisory_xact_lock($1, hashtext($2))) l"
      + " where a.id = $3 and s.id = " + WorkSettingsEntity.ID;
  private static final String LOCK = "select 1 from (select pg_advisory_xact_lock($1, hashtext($2))) l";
  private static final String COUNTS = "select (select count(*) from tasks where owner_id = $1),"
      + " (select count(*) from (select 1 from tasks limit $2) t)";
  private static final String POLICY = "select network_enabled, require_approval from runtime_policies where id = $1";
  private static final String INSERT_WITH_FIRST_RUN = "with t as (insert into tasks (id, owner_id, title,"
      + " provider_kind, provider_id, model, policy_id, network_enabled, sandbox_name, volume_name, approvals_enabled,"
      + " state, created_at, updated_at, workspace_folder)"
      + " select $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::uuid, $8::boolean, $9::text,"
      + " $10::text, $11::boolean, $12::text, $13::timestamptz, $14::timestamptz, $26::text"
      + " where (select count(*) from tasks where owner_id = $2::uuid) < $24::bigint"
      + " and (select count(*) from (select 1 from tasks limit $25::bigint) g) < $25::bigint returning id),"
      + " r as (insert into runs (id, task_id, state, provider_kind, provider_id, model, created_at)"
      + " select $15::uuid, t.id, $16::text, $4::text, $5::text, $6::text, $17::timestamptz from t returning id),"
      + " a as (insert into audit_log (actor_id, actor_role, action, task_id, detail)"
      + " select $18::text, $19::text, 'task.create', t.id, $20::text from t)"
      + " insert into messages (task_id, run_id, role, content, created_at)"
      + " select $1::uuid, r.id, $21::text, $22::text, $23::timestamptz from r returning id";

  private final Pool pool;

  public TaskCreateStatements(Pool pool) {
    this.pool = pool;
  }

  /** Runs {@code work} in one transaction: committed when its Uni succeeds, rolled back when it fails. */
  public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
    return pool.withTransaction(work);
  }

  /** Takes the transaction-scoped advisory lock {@code (namespace, key)} and reads the caller's access facts. */
  public Uni<AccessRow> lockAndReadAccess(SqlConnection connection, int namespace, String key, UUID accountId) {
    return connection.preparedQuery(LOCK_AND_ACCESS).execute(Tuple.of(namespace, key, accountId))
        .map(rows -> {
          RowIterator<Row> it = rows.iterator();
          if (!it.hasNext()) {
            return new AccessRow(null, null, null);
          }
          Row row = it.next();
          return new AccessRow(row.getString(0), row.getString(1), row.getString(2));
        });
  }

  /** A transaction-scoped advisory lock; its own statement, so the next statement sees what the holder committed. */
  public Uni<Void> lock(SqlConnection connection, int namespace, String key) {
    return connection.preparedQuery(LOCK).execute(Tuple.of(namespace, key)).replaceWithVoid();
  }

  /** The owner's tasks and the instance's, the latter counted no further than {@code globalCap}. */
  public Uni<long[]> counts(SqlConnection connection, UUID ownerId, int globalCap) {
    return connection.preparedQuery(COUNTS).execute(Tuple.of(ownerId, globalCap)).map(rows -> {
      Row row = rows.iterator().next();
      return new long[] {row.getLong(0), row.getLong(1)};
    });
  }

  /** The policy's facts, or null when there is no such policy. */
  public Uni<PolicyFacts> policy(SqlConnection connection, UUID policyId) {
    return connection.preparedQuery(POLICY).execute(Tuple.of(policyId)).map(rows -> {
      RowIterator<Row> it = rows.iterator();
      if (!it.hasNext()) {
        return null;
      }
      Row row = it.next();
      return new PolicyFacts(policyId, row.getBoolean(0), row.getBoolean(1));
    });
  }

  /**
   * Inserts a new task, its first run, the opening message and the audit entry in one statement,
   * only while the owner holds fewer than {@code ownerBelow} tasks and the instance fewer than
   * {@code globalBelow}: the counts ride on the insert, whose snapshot is taken after the caller's
   * cap lock. Returns the message's id, or null when a count refused the insert (nothing was written).
   */
  public Uni<Long> insertWithFirstRun(SqlConnection connection, TaskEntity task, RunEntity run, MessageEntity message,
      Actor actor, String auditDetail, long ownerBelow, long globalBelow) {
    Tuple values = Tuple.tuple()
        .addUUID(task.id).addUUID(task.ownerId).addString(task.title)
        .addString(task.providerKind).addString(task.providerId).addString(task.model)
        .addUUID(task.policyId).addBoolean(task.networkEnabled).addString(task.sandboxName)
        .addString(task.volumeName).addBoolean(task.approvalsEnabled).addString(task.state)
        .addOffsetDateTime(task.createdAt).addOffsetDateTime(task.updatedAt)
        .addUUID(run.id).addString(run.state).addOffsetDateTime(run.createdAt)
        .addString(actor.accountId()).addString(actor.role().wire()).addString(auditDetail)
        .addString(message.role).addString(message.content).addOffsetDateTime(message.createdAt)
        .addLong(ownerBelow).addLong(globalBelow).addString(task.workspaceFolder);
    return connection.preparedQuery(INSERT_WITH_FIRST_RUN).execute(values).map(rows -> {
      RowIterator<Row> it = rows.iterator();
      return it.hasNext() ? it.next().getLong(0) : null;
    });
  }
}
