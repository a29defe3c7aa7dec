package dev.workcell.gateway.problem;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * A sandbox that cannot start because the memory budget is taken by busy sandboxes answers 429
 * runtime_capacity with Retry-After, on the Work API and on the Open Terminal API alike; when the
 * refusing service knows when a sandbox may be stopped, that wait crosses NATS as the Retry-After.
 */
@QuarkusTest
class CapacityRefusalTest {

  @Test
  void theWorkApiAnswers429WithRetryAfter() {
    TaskView task = FixtureServices.seedTask("u-alice");
    given().auth().oauth2(token("u-alice")).queryParam("path", FixtureServices.FULL_HOST)
        .when().get("/api/work/tasks/" + task.id() + "/files")
        .then().statusCode(429).contentType("application/problem+json").header("Retry-After", "30")
        .body("code", equalTo("runtime_capacity"));
  }

  @Test
  void aRefusalThatKnowsWhenToTryAgainCarriesItsOwnRetryAfter() {
    TaskView task = FixtureServices.seedTask("u-alice");
    given().auth().oauth2(token("u-alice")).queryParam("path", FixtureServices.FULL_HOST_FOR_7S)
        .when().get("/api/work/tasks/" + task.id() + "/files")
        .then().statusCode(429).contentType("application/problem+json").header("Retry-After", "7")
        .body("code", equalTo("runtime_capacity"));
  }

  @Test
  void theOpenTerminalApiAnswers429WithRetryAfter() {
    given().header("Authorization", "Bearer test-terminal-key").header("X-User-Id", FixtureServices.FULL_HOST)
        .when().get("/api/open-terminal/files/list")
        .then().statusCode(429).contentType("application/problem+json").header("Retry-After", "30")
        .body("code", equalTo("runtime_capacity"));
  }
}
