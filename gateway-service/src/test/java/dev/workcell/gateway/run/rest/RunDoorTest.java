package dev.workcell.gateway.run.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import dev.workcell.gateway.fixture.RuntimeFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A run that could not even wait in line for a sandbox slot is refused at the door; capabilities tell what is free. */
@QuarkusTest
class RunDoorTest {

  private static final String ALICE = "u-alice";

  @AfterEach
  void roomAgain() {
    RuntimeFixture.usage = RuntimeFixture.ROOMY;
  }

  @Test
  void aNewTaskOrRunIsRefusedWith429AndRetryAfterWhileTheLineForSlotsIsFull() {
    TaskView task = FixtureServices.seedTask(ALICE);
    RuntimeFixture.usage = new RuntimeUsage("docker", true, null, 3, 3, 2, 2, 16, 16, 3_000, 0);
    long creates = FixtureServices.CALLS.stream().filter(c -> c.subject().equals(TaskSubjects.CREATE)).count();

    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("message", "build a site", "provider", "ollama", "model", "qwen3"))
        .when().post("/api/work/tasks")
        .then().statusCode(429).contentType("application/problem+json").header("Retry-After", notNullValue())
        .body("code", equalTo("too_many_runtimes"));
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("message", "again"))
        .when().post("/api/work/tasks/" + task.id() + "/runs")
        .then().statusCode(429).body("code", equalTo("too_many_runtimes"));
    assertThat(FixtureServices.CALLS.stream().filter(c -> c.subject().equals(TaskSubjects.CREATE)).count())
        .as("nothing was created").isEqualTo(creates);
    assertThat(RuntimeFixture.lastAskedFor).isEqualTo(ALICE);

    RuntimeFixture.usage = RuntimeFixture.ROOMY;
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("message", "now"))
        .when().post("/api/work/tasks/" + task.id() + "/runs").then().statusCode(201);
  }

  @Test
  void capabilitiesTellTheRuntimesAvailabilityCapsUseAndTheEffectiveRoundBudget() {
    given().auth().oauth2(token(ALICE)).when().get("/api/work/capabilities").then().statusCode(200)
        .body("runtime.backend", equalTo("docker")).body("runtime.available", equalTo(true))
        .body("runtime.globalCap", equalTo(3)).body("runtime.globalActive", equalTo(1))
        .body("runtime.perUserCap", equalTo(2)).body("runtime.userActive", equalTo(0))
        .body("budget.maxRounds", equalTo(13)).body("budget.runLeaseWaitMs", equalTo(60_000))
        .body("limits.maxAgentRounds", equalTo(13));
  }
}
