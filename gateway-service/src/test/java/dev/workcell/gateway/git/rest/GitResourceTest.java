package dev.workcell.gateway.git.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** The git status endpoint carries sandbox-service's recent commits to the caller. */
@QuarkusTest
class GitResourceTest {

  @Test
  void gitStatusCarriesTheRecentCommits() {
    TaskView task = FixtureServices.seedTask("u-alice");
    FixtureServices.REPOSITORIES.add(task.id());
    given().auth().oauth2(token("u-alice")).when().get("/api/work/tasks/" + task.id() + "/git").then().statusCode(200)
        .body("recentCommits", hasSize(1))
        .body("recentCommits[0].hash", equalTo("0123456789abcdef0123456789abcdef01234567"))
        .body("recentCommits[0].subject", equalTo("Add the landing page"))
        .body("recentCommits[0].author", equalTo("Alice"))
        .body("recentCommits[0].time", equalTo("2026-01-02T03:04:05Z"));
  }
}
