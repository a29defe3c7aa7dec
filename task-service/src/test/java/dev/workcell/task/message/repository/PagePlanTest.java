package dev.workcell.task.message.repository;

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
 * The page statement is prepared once per pooled connection, and PostgreSQL may then run a generic
 * plan chosen without the task id. Whatever plan it picks, a page must read only its own task's rows:
 * a plan walking the whole table in id order would make every page of an early task pay for every
 * message written since, by anyone.
 */
@QuarkusTest
class PagePlanTest {

  private static final int PAGE = 201;

  @Inject
  DataSource dataSource;

  @Test
  void aGenericPlanReadsOnlyTheTasksOwnRows() throws Exception {
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
        }
        // An early conversation, then a busy one written after it (higher ids). Statistics that see few
        // tasks (a small installation) make "half the rows are this task's" the generic plan's guess.
        sql.execute("insert into messages (task_id, role, content) select '" + early + "', 'user', 'early ' || g"
            + " from generate_series(1, " + PAGE + ") g");
        sql.execute("insert into messages (task_id, role, content) select '" + busy + "', 'assistant', 'busy ' || g"
            + " from generate_series(1, 20000) g");
        sql.execute("alter table messages alter column task_id set (n_distinct = 2)");
        sql.execute("analyze messages");
        sql.execute("set local plan_cache_mode = force_generic_plan");
        sql.execute("prepare owned_page (uuid, uuid, bigint, int, bigint) as " + OwnedPageQuery.SQL);

        JsonNode plan;
        try (ResultSet rs = sql.executeQuery("explain (analyze, format json) execute owned_page ('" + owner + "', '"
            + early + "', " + Long.MAX_VALUE + ", " + PAGE + ", 1000000)")) {
          rs.next();
          plan = new ObjectMapper().readTree(rs.getString(1)).get(0).get("Plan");
        }
        assertThat(messageRowsRead(plan)).as("rows of messages the page read").isLessThanOrEqualTo(PAGE);
      } finally {
        db.rollback();
      }
    }
  }

  /** Rows of the messages table the plan produced or filtered away, over all its scans. */
  private static long messageRowsRead(JsonNode node) {
    long rows = 0;
    if ("messages".equals(node.path("Relation Name").asText())) {
      rows += node.path("Actual Rows").asLong() * Math.max(1, node.path("Actual Loops").asLong())
          + node.path("Rows Removed by Filter").asLong() + node.path("Rows Removed by Index Recheck").asLong();
    }
    for (JsonNode child : node.path("Plans")) {
      rows += messageRowsRead(child);
    }
    return rows;
  }
}
