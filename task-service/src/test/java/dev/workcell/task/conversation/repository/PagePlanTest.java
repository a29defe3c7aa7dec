package dev.workcell.task.conversation.repository;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Page statements are prepared once per pooled connection, and PostgreSQL may then run a generic
 * plan chosen without the task id. Whatever plan it picks, a page must read only its own task's rows:
 * a plan walking the whole table in id order would make every page of an early task pay for every
 * row written since, by anyone.
 */
@QuarkusTest
class PagePlanTest {

  private static final int PAGE = 201;
  private static final int LATER_ROWS = 20_000;

  @Inject
  DataSource dataSource;

  @Test
  void aMessagePageReadsOnlyTheTasksOwnRows() throws Exception {
    assertThat(rowsReadByAGenericPlan("messages",
        "insert into messages (task_id, role, content) select %s, 'user', 'row ' || g from generate_series(1, %d) g",
        "(uuid, uuid, bigint, int, bigint) as " + OwnedPageQuery.SQL,
        "(%owner, %task, " + Long.MAX_VALUE + ", " + PAGE + ", 1000000)"))
        .as("rows of messages a page read").isLessThanOrEqualTo(PAGE);
  }

  @Test
  void aToolActivityPageReadsOnlyTheTasksOwnRows() throws Exception {
    // The page as Hibernate sends ToolActivityRepository.page's query.
    assertThat(rowsReadByAGenericPlan("tool_activity",
        "insert into tool_activity (task_id, run_id, tool_call_id, tool_name, status) select %s, r.id, 'call-' || g,"
            + " 'run_command', 'ok' from runs r, generate_series(1, %d) g where r.task_id = %1$s",
        "(uuid, bigint, int) as select * from tool_activity where task_id = $1 and id < $2 order by id desc limit $3",
        "(%task, " + Long.MAX_VALUE + ", " + PAGE + ")"))
        .as("rows of tool activity a page read").isLessThanOrEqualTo(PAGE);
  }

  /**
   * Rows of {@code table} the prepared page statement reads under a generic plan for an early task's
   * page, after a busy task wrote {@value #LATER_ROWS} rows. {@code fill} inserts rows for a task
   * (its id, then a count); {@code arguments} names the owner and the early task as %owner, %task.
   */
  private long rowsReadByAGenericPlan(String table, String fill, String statement, String arguments) throws Exception {
    UUID owner = UUID.randomUUID();
    UUID early = UUID.randomUUID();
    UUID busy = UUID.randomUUID();
    try (Connection db = dataSource.getConnection(); Statement sql = db.createStatement()) {
      db.setAutoCommit(false);
      try {
        sql.execute("insert into accounts (id, username, role) values ('" + owner + "', 'plan-" + owner + "', 'admin')");
        for (UUID task : new UUID[] {early, busy}) {
          sql.execute("insert into tasks (id, owner_id, title, provider_kind, provider_id, model, sandbox_name,"
              + " volume_name) values ('" + task + "', '" + owner + "', 'plan', 'ollama', 'ollama', 'm', 's-" + task
              + "', 'v-" + task + "')");
          sql.execute("insert into runs (id, task_id, state, provider_kind, provider_id, model) values ('"
              + UUID.randomUUID() + "', '" + task + "', 'completed', 'ollama', 'ollama', 'm')");
        }
        // An early task, then a busy one written after it (higher ids). Statistics that see few tasks
        // (a small installation) make "half the rows are this task's" the generic plan's guess.
        sql.execute(String.format(fill, "'" + early + "'::uuid", PAGE));
        sql.execute(String.format(fill, "'" + busy + "'::uuid", LATER_ROWS));
        sql.execute("alter table " + table + " alter column task_id set (n_distinct = 2)");
        sql.execute("analyze " + table);
        sql.execute("set local plan_cache_mode = force_generic_plan");
        sql.execute("prepare page " + statement);
        try (ResultSet plan = sql.executeQuery("explain (analyze, format json) execute page "
            + arguments.replace("%owner", "'" + owner + "'").replace("%task", "'" + early + "'"))) {
          plan.next();
          return rowsRead(new ObjectMapper().readTree(plan.getString(1)).get(0).get("Plan"), table);
        }
      } finally {
        db.rollback();
        sql.execute("deallocate all"); // prepared statements outlive the transaction, and the connection is pooled
      }
    }
  }

  /** Rows of the table the plan produced or filtered away, over all its scans. */
  private static long rowsRead(JsonNode node, String table) {
    long rows = 0;
    if (table.equals(node.path("Relation Name").asText())) {
      rows += node.path("Actual Rows").asLong() * Math.max(1, node.path("Actual Loops").asLong())
          + node.path("Rows Removed by Filter").asLong() + node.path("Rows Removed by Index Recheck").asLong();
    }
    for (JsonNode child : node.path("Plans")) {
      rows += rowsRead(child, table);
    }
    return rows;
  }
}
