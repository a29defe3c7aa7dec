package dev.workcell.gateway.budget;

import static dev.workcell.gateway.budget.BulkPacingTest.post;
import static dev.workcell.gateway.budget.BulkPacingTest.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * All users' large bodies together are paced too: many users (or one client under many Open
 * Terminal user ids) at their own pace each would otherwise keep every core busy. A user over its own
 * pace spends nothing of the shared one while it waits.
 */
@QuarkusTest
@TestProfile(BulkPacingForAllTest.SlowPaceForAll.class)
class BulkPacingForAllTest {

  public static class SlowPaceForAll implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      // Each user's own pace is fast (8 MiB/s); all users' together slow (256 KiB/s): 1 MB is a debt of about 3.6 s.
      return Map.of("workcell.gateway.budget.bulk-total-bytes-per-second", "262144",
          "workcell.gateway.budget.bulk-total-burst-bytes", "65536",
          "workcell.gateway.budget.bulk-bytes-per-second", "8388608", "workcell.gateway.budget.bulk-burst-bytes", "65536",
          "workcell.gateway.budget.body-wait", "500ms", "workcell.terminal.sandbox-deadline", "1s");
    }
  }

  @Test
  void afterOneUsersLargeBodyAnotherUsersWaitsItsTurn() {
    post("all-alice", write(1_000_000)).statusCode(not(429)); // no sandbox answers here: admitted means 503
    var refused = post("all-bob", write(100_000)).statusCode(429).contentType("application/problem+json")
        .body("code", equalTo("rate_limited")).extract();
    assertThat(refused.headers().getValues("Retry-After")).singleElement().isIn("3", "4");
    assertThat(refused.body().jsonPath().getString("detail")).contains("all users' together");
    post("all-bob", write(1_000)).statusCode(not(429)); // small bodies are never paced
  }
}
