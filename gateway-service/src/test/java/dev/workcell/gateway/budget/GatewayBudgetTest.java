package dev.workcell.gateway.budget;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.workcell.gateway.budget.service.GatewayBudget;
import dev.workcell.messaging.budget.ByteBudget;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A request body that does not fit beside what the gateway holds waits briefly, unread, then gets
 * 429 rate_limited with Retry-After; readiness says the budget is exhausted meanwhile. Nothing of
 * the refused body reaches a sandbox (none answers in this test: an admitted write is a 503).
 */
@QuarkusTest
@TestProfile(GatewayBudgetTest.SmallBudget.class)
class GatewayBudgetTest {

  public static class SmallBudget implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.gateway.budget.bytes", "100000", "workcell.gateway.budget.per-user-bytes", "100000",
          "workcell.gateway.budget.body-wait", "200ms", "workcell.terminal.sandbox-deadline", "1s");
    }
  }

  @Inject
  GatewayBudget budget;

  private static String write(int size) {
    return "{\"path\":\"a.txt\",\"content\":\"" + "x".repeat(size) + "\"}";
  }

  @Test
  void aBodyThatDoesNotFitIsRefusedWithRetryAfterAndReadinessSaysWhy() {
    ByteBudget.Hold other = budget.take("terminal:bob", 95_000);
    try {
      given().header("Authorization", "Bearer test-terminal-key").header("X-User-Id", "alice")
          .contentType("application/json").body(write(10_000))
          .when().post("/api/open-terminal/files/write")
          .then().statusCode(429).contentType("application/problem+json").header("Retry-After", "1")
          .body("code", equalTo("rate_limited"));
      given().when().get("/q/health/ready").then().statusCode(503)
          .body("checks.find { it.name == 'memory-budget' }.data.reason", equalTo("memory_budget_exhausted"));
    } finally {
      other.close();
    }
    assertThat(heldAfterAnswers()).isZero();
    given().header("Authorization", "Bearer test-terminal-key").header("X-User-Id", "alice")
        .contentType("application/json").body(write(10_000))
        .when().post("/api/open-terminal/files/write")
        .then().statusCode(not(429));
    assertThat(heldAfterAnswers()).isZero(); // given back once the answer was sent
  }

  /** The room is given back by the answer's end handler, just after the client has the answer. */
  private long heldAfterAnswers() {
    for (int i = 0; i < 100 && budget.budget().held() > 0; i++) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return budget.budget().held();
  }
}
