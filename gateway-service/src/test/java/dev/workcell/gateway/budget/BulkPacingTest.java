package dev.workcell.gateway.budget;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One user's large bodies are paced to a byte rate: a body arriving while that user's earlier
 * bodies are still being paid off waits, or when that would take longer than body-wait gets 429
 * rate_limited with an honest Retry-After; another user and small bodies are not held up.
 */
@QuarkusTest
@TestProfile(BulkPacingTest.SlowPace.class)
class BulkPacingTest {

  public static class SlowPace implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      // 1 MB leaves a debt of about 3.6 s, far more than the 1 s sandbox deadline of the first write.
      return Map.of("workcell.gateway.budget.bulk-bytes-per-second", "262144", "workcell.gateway.budget.bulk-burst-bytes", "65536",
          "workcell.gateway.budget.body-wait", "500ms", "workcell.terminal.sandbox-deadline", "1s");
    }
  }

  static String write(int size) {
    return "{\"path\":\"a.txt\",\"content\":\"" + "x".repeat(size) + "\"}";
  }

  static io.restassured.response.ValidatableResponse post(String user, String body) {
    return given().header("Authorization", "Bearer test-terminal-key").header("X-User-Id", user)
        .contentType("application/json").body(body)
        .when().post("/api/open-terminal/files/write").then();
  }

  @Test
  void aUserWhoSentALotWaitsItsTurnWhileOthersDoNot() {
    post("pacing-alice", write(1_000_000)).statusCode(not(429)); // no sandbox answers here: admitted means 503
    var refused = post("pacing-alice", write(100_000)).statusCode(429).contentType("application/problem+json")
        .body("code", equalTo("rate_limited")).extract();
    // One Retry-After, the pacer's (the code's usual 1 s would be a lie here).
    assertThat(refused.headers().getValues("Retry-After")).singleElement().isIn("3", "4");
    post("pacing-alice", write(1_000)).statusCode(not(429)); // a small body is never paced
    post("pacing-bob", write(1_000_000)).statusCode(not(429));
  }
}
