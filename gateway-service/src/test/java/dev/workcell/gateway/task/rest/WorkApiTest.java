package dev.workcell.gateway.task.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Work API end to end through the gateway, with task-service and sandbox-service as fixtures on NATS. */
@QuarkusTest
class WorkApiTest {

  static final String ALICE = "u-alice";

  @Test
  void creatingATaskAnswers201WithTheTaskAndItsFirstRun() {
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("message", "build a site", "provider", "ollama", "model", "qwen3", "title", "site"))
        .when().post("/api/work/tasks")
        .then().statusCode(201).header("Location", org.hamcrest.Matchers.containsString("/api/work/tasks/"))
        .body("task.id", notNullValue()).body("run.id", notNullValue()).body("task.title", equalTo("site"))
        // States, kinds and roles are enums in the contract and their lowercase wire names on the API.
        .body("task.state", equalTo("preparing")).body("task.providerKind", equalTo("ollama"))
        .body("run.state", equalTo("preparing")).body("run.providerKind", equalTo("ollama"))
        .body("message.role", equalTo("user"));
    assertThat(FixtureServices.SEEN_ACTORS.get(TaskSubjects.CREATE)).isEqualTo(new Actor(ALICE, Actor.Role.USER));
  }

  @Test
  void theActorIsTheAccountsCurrentRoleNotTheTokens() {
    // bob's token says "user"; his account row says admin, and that is what task-service is told.
    given().auth().oauth2(token("u-bob")).when().get("/api/work/tasks").then().statusCode(200);
    assertThat(FixtureServices.SEEN_ACTORS.get(TaskSubjects.LIST)).isEqualTo(new Actor("u-bob", Actor.Role.ADMIN));
  }

  @Test
  void tasksAreListedReadRenamedPagedAndDeleted() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String base = "/api/work/tasks/" + task.id();
    given().auth().oauth2(token(ALICE)).when().get("/api/work/tasks").then().statusCode(200).body("tasks.id", hasItem(task.id()));
    given().auth().oauth2(token(ALICE)).when().get(base).then().statusCode(200).body("task.id", equalTo(task.id()))
        .body("latestRun.state", equalTo("running"));
    given().auth().oauth2(token(ALICE)).queryParam("limit", 10).when().get(base + "/messages").then().statusCode(200)
        .body("messages[0].content", equalTo("hello"));
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("title", "renamed"))
        .when().patch(base).then().statusCode(200).body("title", equalTo("renamed"));
    given().auth().oauth2(token(ALICE)).when().delete(base).then().statusCode(200).body("taskId", equalTo(task.id()));
    given().auth().oauth2(token(ALICE)).when().get(base).then().statusCode(404).body("code", equalTo("not_found"));
  }

  @Test
  void runsAreStartedSteeredAndCancelled() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String base = "/api/work/tasks/" + task.id();
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("message", "and now tests"))
        .when().post(base + "/runs").then().statusCode(201).body("run.id", notNullValue());
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("message", "use pytest"))
        .when().post(base + "/messages").then().statusCode(202).body("content", equalTo("use pytest"));
    given().auth().oauth2(token(ALICE)).when().post(base + "/cancel").then().statusCode(200).body("task.id", equalTo(task.id()));
  }

  @Test
  void approvalsAreReadToggledDecidedAndRulesRemoved() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String base = "/api/work/tasks/" + task.id();
    given().auth().oauth2(token(ALICE)).when().get(base + "/approvals").then().statusCode(200).body("enabled", equalTo(true));
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("enabled", false))
        .when().put(base + "/approvals").then().statusCode(200).body("enabled", equalTo(false));
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("decision", "always_allow"))
        .when().post(base + "/approvals/ap-1").then().statusCode(200).body("decision", equalTo("always_allow"));
    given().auth().oauth2(token(ALICE)).when().delete(base + "/approval-rules/rule-1").then().statusCode(200);
  }

  @Test
  void aFileSaveWithAStaleVersionIsAConflict() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String base = "/api/work/tasks/" + task.id();
    String version = given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("path", "index.html", "content", "<h1>v1</h1>"))
        .when().put(base + "/file").then().statusCode(200).extract().path("version");
    given().auth().oauth2(token(ALICE)).queryParam("path", "index.html").when().get(base + "/file")
        .then().statusCode(200).body("content", equalTo("<h1>v1</h1>")).body("version", equalTo(version));
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("path", "index.html", "content", "<h1>v2</h1>", "expectedVersion", version))
        .when().put(base + "/file").then().statusCode(200);
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("path", "index.html", "content", "<h1>stale</h1>", "expectedVersion", version))
        .when().put(base + "/file").then().statusCode(409).contentType("application/problem+json").body("code", equalTo("conflict"));
    given().auth().oauth2(token(ALICE)).queryParam("path", "").when().get(base + "/files")
        .then().statusCode(200).body("entries[0].name", equalTo("index.html"));
    assertThat(FixtureServices.SEEN_ACTORS.get(SandboxSubjects.FILES_WRITE)).isEqualTo(new Actor(ALICE, Actor.Role.USER));
  }

  @Test
  void previewsStartAndStop() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String base = "/api/work/tasks/" + task.id();
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("command", "npm run dev"))
        .when().post(base + "/preview/start").then().statusCode(200).body("running", equalTo(true))
        .body("generation", equalTo(7)).body("path", org.hamcrest.Matchers.startsWith("/api/work/previews/"))
        .body("url", org.hamcrest.Matchers.matchesPattern("http://[^/]+/api/work/previews/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+/"))
        .body("hostPort", org.hamcrest.Matchers.nullValue());
    given().auth().oauth2(token(ALICE)).when().post(base + "/preview/stop").then().statusCode(200).body("running", equalTo(false));
  }

  @Test
  void gitStatusAndDiffComeFromTheSandboxAndAWorkspaceWithoutARepositoryIsA409() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String base = "/api/work/tasks/" + task.id();
    given().auth().oauth2(token(ALICE)).when().get(base + "/git").then().statusCode(409)
        .contentType("application/problem+json").body("code", equalTo("not_a_repository"));
    given().auth().oauth2(token(ALICE)).when().get(base + "/git/diff").then().statusCode(409)
        .body("code", equalTo("not_a_repository"));

    FixtureServices.REPOSITORIES.add(task.id());
    given().auth().oauth2(token(ALICE)).when().get(base + "/git").then().statusCode(200)
        .body("branch", equalTo("main")).body("files.path", hasItem("notes.txt")).body("files[0].worktree", equalTo("M"));
    given().auth().oauth2(token(ALICE)).queryParam("path", "src/app.js").when().get(base + "/git/diff").then().statusCode(200)
        .body("diff", org.hamcrest.Matchers.startsWith("diff --git a/src/app.js")).body("truncated", equalTo(false));
    given().auth().oauth2(token(ALICE)).queryParam("path", "../etc").when().get(base + "/git/diff").then().statusCode(400)
        .body("code", equalTo("invalid_path"));
    assertThat(FixtureServices.SEEN_ACTORS.get(SandboxSubjects.GIT_DIFF)).isEqualTo(new Actor(ALICE, Actor.Role.USER));
  }

  @Test
  void theSandboxViewShowsTheWorkspaceDiskAndOnlyToItsOwner() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String base = "/api/work/tasks/" + task.id();
    given().auth().oauth2(token(ALICE)).when().get(base + "/sandbox").then().statusCode(200)
        .body("state", equalTo("running")).body("disk.bounded", equalTo(true))
        .body("disk.sizeBytes", equalTo(5_000_000_000L)).body("disk.usedBytes", equalTo(1_234_567));
    assertThat(FixtureServices.SEEN_ACTORS.get(SandboxSubjects.STATUS)).isEqualTo(new Actor(ALICE, Actor.Role.USER));
    given().auth().oauth2(token("u-bob")).when().get(base + "/sandbox").then().statusCode(404);
  }

  @Test
  void capabilitiesAndWebSocketTicketsAreServed() {
    TaskView task = FixtureServices.seedTask(ALICE);
    given().auth().oauth2(token(ALICE)).when().get("/api/work/capabilities").then().statusCode(200)
        .body("providerKinds", hasItem("anthropic")).body("limits.messageMaxChars", equalTo(65536));
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("audience", "terminal", "taskId", task.id()))
        .when().post("/api/auth/websocket-ticket").then().statusCode(201).body("ticket", notNullValue());
  }

  @Test
  void theOpenApiDocumentNamesEveryOperation() {
    String document = given().when().get("/q/openapi").then().statusCode(200).extract().asString();
    for (String operationId : new String[] {"getCapabilities", "listTasks", "createTask", "getTask", "listTaskMessages",
        "updateTask", "deleteTask", "startRun", "postRunMessage", "cancelRun", "streamRunEvents", "getApprovals",
        "setApprovals", "decideApproval", "deleteApprovalRule", "listWorkspaceFiles", "readWorkspaceFile",
        "saveWorkspaceFile", "getGitStatus", "getGitDiff", "getTaskSandbox", "startPreview", "stopPreview", "issueWebSocketTicket",
        "getCurrentAccount", "listAllTasks", "initGitRepository", "stageGitPaths", "commitGit", "createGitBranch",
        "switchGitBranch"}) {
      assertThat(document).as(operationId).contains("operationId: " + operationId);
    }
    // Enum schemas list the values clients send and see, not the Java constant names.
    assertThat(document).contains("needs_input", "ollama_cloud", "allow_once").doesNotContain("NEEDS_INPUT", "OLLAMA_CLOUD");
    // The git replies are documented with their fields, not as an opaque object.
    assertThat(document).contains("GitStatus:").contains("GitDiff:").contains("truncated:");
  }
}
