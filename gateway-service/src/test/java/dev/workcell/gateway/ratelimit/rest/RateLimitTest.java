package dev.workcell.gateway.ratelimit.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import dev.workcell.gateway.run.rest.SseClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Per-caller token buckets on the real HTTP stack. The refill is one request per 100 s here, so a
 * spent budget stays spent for the whole test and the counts are exact.
 */
@QuarkusTest
@TestProfile(RateLimitTest.TightLimits.class)
class RateLimitTest {

  static final int BURST = 5;

  public static class TightLimits implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.gateway.rate-limit.requests-per-second", "0.01",
          "workcell.gateway.rate-limit.burst", Integer.toString(BURST));
    }
  }

  static String account(String id) {
    FixtureServices.ACCOUNTS.put(id, new Account(id, id, Actor.Role.USER, "active"));
    return token(id);
  }

  @Test
  void anAccountOverItsBurstGets429WithRetryAfterAndOthersAreUnaffected() {
    String carol = account("u-rl-carol");
    for (int i = 0; i < BURST; i++) {
      given().auth().oauth2(carol).when().get("/api/work/tasks").then().statusCode(200);
    }
    Response refused = given().auth().oauth2(carol).when().get("/api/work/tasks");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.jsonPath().getString("code")).isEqualTo("rate_limited");
    // One token per 100 s: the next one is about 100 s away.
    assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 100L);
    // Mutations and /api/auth count against the same budget.
    given().auth().oauth2(carol).when().get("/api/auth/me").then().statusCode(429).body("code", equalTo("rate_limited"));

    // Another account (same client address) has its own bucket.
    String dave = account("u-rl-dave");
    given().auth().oauth2(dave).when().get("/api/work/tasks").then().statusCode(200);
    // Paths outside the limited APIs are not counted.
    given().when().get("/q/health/live").then().statusCode(200);
  }

  @Test
  void withoutAValidTokenTheClientAddressIsLimitedAndForgedSubjectsDoNotDrainAnAccount() throws Exception {
    String erin = account("u-rl-erin");
    var foreignKey = java.security.KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate();
    String forged = io.smallrye.jwt.build.Jwt.issuer("workcell").subject("u-rl-erin").expiresIn(600).sign(foreignKey);
    for (int i = 0; i < BURST; i++) {
      // Forged (erin's subject, wrong key) and missing tokens both count against the address.
      String bad = i % 2 == 0 ? forged : null;
      var request = bad == null ? given() : given().auth().oauth2(bad);
      request.when().get("/api/work/tasks").then().statusCode(401);
    }
    given().when().get("/api/work/tasks").then().statusCode(429).header("Retry-After", org.hamcrest.Matchers.notNullValue())
        .body("code", equalTo("rate_limited"));
    given().auth().oauth2(forged).when().get("/api/auth/me").then().statusCode(429);
    // erin's own budget is untouched by requests that only claimed to be her.
    for (int i = 0; i < BURST; i++) {
      given().auth().oauth2(erin).when().get("/api/work/tasks").then().statusCode(200);
    }
    given().auth().oauth2(erin).when().get("/api/work/tasks").then().statusCode(429);
  }

  @Test
  void aLiveStreamCountsOnceAtConnect() throws Exception {
    String frank = account("u-rl-frank");
    TaskView task = FixtureServices.seedTask("u-rl-frank");
    String run = FixtureServices.LATEST_RUNS.get(task.id()).id();
    URI events = URI.create("http://127.0.0.1:" + RestAssured.port + "/api/work/tasks/" + task.id() + "/runs/" + run + "/events");
    try (SseClient stream = SseClient.open(events, frank, null)) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.next().event()).isEqualTo("snapshot");
      Thread.sleep(2_500); // heartbeats flow (1 s in the test profile); none of them is a request
      assertThat(stream.heartbeats).isPositive();
      for (int i = 0; i < BURST - 1; i++) {
        given().auth().oauth2(frank).when().get("/api/work/tasks").then().statusCode(200);
      }
      given().auth().oauth2(frank).when().get("/api/work/tasks").then().statusCode(429);
    }
  }
}
