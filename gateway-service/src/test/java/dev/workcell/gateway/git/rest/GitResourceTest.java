package dev.workcell.gateway.git.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.workcell.contracts.sandbox.GitChange.CommitStaged;
import dev.workcell.contracts.sandbox.GitChange.CreateBranch;
import dev.workcell.contracts.sandbox.GitChange.InitRepository;
import dev.workcell.contracts.sandbox.GitChange.StagePaths;
import dev.workcell.contracts.sandbox.GitChange.SwitchBranch;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The git endpoints: status carries the recent commits; the writes' shapes, limits and problems. */
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

  @Test
  void writesReachSandboxServiceWithTheCheckedInputsAndTheAccountAsAuthor() {
    TaskView task = FixtureServices.seedTask("u-alice");
    String base = "/api/work/tasks/" + task.id() + "/git";
    FixtureServices.GIT_WRITES.clear();
    post(base + "/init", null).statusCode(200).body("branch", equalTo("main"));
    post(base + "/stage", Map.of("paths", List.of("a.txt", "dir/b c.txt"))).statusCode(200);
    post(base + "/commit", Map.of("message", "First\n\nbody")).statusCode(200);
    post(base + "/branches", Map.of("name", "topic")).statusCode(200);
    post(base + "/switch", Map.of("name", "topic")).statusCode(200);

    var ref = new dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef(task.id(), "u-alice");
    assertThat(FixtureServices.GIT_WRITES).containsExactly(
        new InitRepository(ref),
        new StagePaths(ref, List.of("a.txt", "dir/b c.txt")),
        new CommitStaged(ref, "First\n\nbody", "alice", "alice@users.workcell.invalid"),
        new CreateBranch(ref, "topic"),
        new SwitchBranch(ref, "topic"));
  }

  @Test
  void tooManyPathsOrTooLongAMessageIs413AndBadInputA400BeforeSandboxServiceIsAsked() {
    TaskView task = FixtureServices.seedTask("u-alice");
    String base = "/api/work/tasks/" + task.id() + "/git";
    FixtureServices.GIT_WRITES.clear();
    problem(post(base + "/stage", Map.of("paths", Collections.nCopies(201, "a.txt"))), 413, "too_many_paths");
    problem(post(base + "/stage", Map.of("paths", List.of("ok.txt", "../etc/passwd"))), 400, "invalid_path");
    problem(post(base + "/stage", Map.of("paths", List.of())), 400, "invalid_argument");
    problem(post(base + "/commit", Map.of("message", "x".repeat(4_001))), 413, "commit_message_too_long");
    problem(post(base + "/commit", Map.of("message", "  ")), 400, "invalid_argument");
    assertThat(FixtureServices.GIT_WRITES).isEmpty();
    post(base + "/stage", Map.of("paths", Collections.nCopies(200, "a.txt"))).statusCode(200);
    post(base + "/commit", Map.of("message", "x".repeat(4_000))).statusCode(200);
  }

  @Test
  void aBusySandboxIsA409AndAnotherAccountsTaskA404() {
    TaskView task = FixtureServices.seedTask("u-alice");
    String base = "/api/work/tasks/" + task.id() + "/git";
    FixtureServices.BUSY_SANDBOXES.add(task.id());
    problem(post(base + "/commit", Map.of("message", "wip")), 409, "sandbox_in_use");
    FixtureServices.BUSY_SANDBOXES.remove(task.id());
    given().auth().oauth2(token("u-bob")).contentType("application/json").body(Map.of("name", "topic"))
        .when().post(base + "/switch").then().statusCode(404).body("code", equalTo("not_found"));
  }

  private static io.restassured.response.ValidatableResponse post(String path, Object body) {
    var request = given().auth().oauth2(token("u-alice"));
    if (body != null) {
      request = request.contentType("application/json").body(body);
    }
    return request.when().post(path).then();
  }

  private static void problem(io.restassured.response.ValidatableResponse response, int status, String code) {
    response.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
  }
}
