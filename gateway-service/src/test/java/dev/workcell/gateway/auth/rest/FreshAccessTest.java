package dev.workcell.gateway.auth.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The account is checked fresh on every request — by task-service itself for its subjects, by a
 * separate account read for everything else: a disabled or demoted account is refused on its next
 * request with the same token, gets no data, and changes nothing.
 */
@QuarkusTest
class FreshAccessTest {

  record Call(String method, String path, Object body) {
    Response send(String token, String taskId) {
      var request = given().auth().oauth2(token);
      if (body != null) {
        request = request.contentType(ContentType.JSON).body(body);
      }
      return request.request(method, path.replace("{id}", taskId));
    }
  }

  static final List<Call> CALLS = List.of(
      new Call("GET", "/api/work/tasks", null),
      new Call("GET", "/api/work/tasks/{id}", null),
      new Call("GET", "/api/work/tasks/{id}/messages", null),
      new Call("GET", "/api/work/tasks/{id}/approvals", null),
      new Call("GET", "/api/work/tasks/{id}/files?path=", null),
      new Call("GET", "/api/work/tasks/{id}/file?path=index.html", null),
      new Call("GET", "/api/work/tasks/{id}/git", null),
      new Call("GET", "/api/work/tasks/{id}/git/diff", null),
      new Call("GET", "/api/work/capabilities", null),
      new Call("PATCH", "/api/work/tasks/{id}", Map.of("title", "taken over")),
      new Call("PUT", "/api/work/tasks/{id}/file", Map.of("path", "index.html", "content", "defaced")),
      new Call("POST", "/api/work/tasks/{id}/runs", Map.of("message", "go on")),
      new Call("POST", "/api/work/tasks/{id}/messages", Map.of("message", "steer")),
      new Call("POST", "/api/work/tasks/{id}/cancel", null),
      new Call("PUT", "/api/work/tasks/{id}/approvals", Map.of("enabled", false)),
      new Call("POST", "/api/work/tasks/{id}/approvals/ap-1", Map.of("decision", "always_allow")),
      new Call("DELETE", "/api/work/tasks/{id}/approval-rules/rule-1", null),
      new Call("POST", "/api/work/tasks/{id}/preview/start", Map.of()),
      new Call("POST", "/api/work/tasks/{id}/preview/stop", null),
      new Call("DELETE", "/api/work/tasks/{id}", null));

  @Test
  void aDisabledAccountGetsTheRefusalOnReadsAndMutationsAndChangesNothing() {
    FixtureServices.ACCOUNTS.put("u-eve", new Account("u-eve", "eve", Actor.Role.USER, "active"));
    TaskView task = FixtureServices.seedTask("u-eve");
    FixtureServices.REPOSITORIES.add(task.id());
    String token = FixtureServices.token("u-eve");
    given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("path", "index.html", "content", "mine"))
        .when().put("/api/work/tasks/" + task.id() + "/file").then().statusCode(200);
    given().auth().oauth2(token).when().get("/api/work/tasks/" + task.id()).then().statusCode(200);

    FixtureServices.changeAccount(new Account("u-eve", "eve", Actor.Role.USER, "disabled"));
    int before = FixtureServices.subjectsSeenFor("u-eve").size();
    for (Call call : CALLS) {
      Response response = call.send(token, task.id());
      String label = call.method() + " " + call.path() + " -> " + response.asString();
      assertThat(response.statusCode()).as(label).isEqualTo(403);
      assertThat(response.contentType()).as(label).startsWith("application/problem+json");
      assertThat(response.jsonPath().getString("code")).as(label).isEqualTo("account_disabled");
      // No part of an answer: the task's title, the file's content, the git state.
      assertThat(response.asString()).as(label).doesNotContain("seeded").doesNotContain("mine")
          .doesNotContain("0123456789abcdef").doesNotContain("diff --git");
    }
    List<Subject<?, ?>> reached = FixtureServices.subjectsSeenFor("u-eve");
    // Account reads only: no task-service handler and no sandbox served her anything.
    assertThat(reached.subList(before, reached.size())).allSatisfy(subject -> assertThat(subject).isEqualTo(Subjects.ACCOUNT_GET));
    assertThat(FixtureServices.TASKS.get(task.id()).title()).isEqualTo("seeded");
    assertThat(FixtureServices.FILES.get(task.id() + "/index.html").content()).isEqualTo("mine");

    // Re-enabled, the same token works again: the refusal came from the account, not the token.
    FixtureServices.ACCOUNTS.put("u-eve", new Account("u-eve", "eve", Actor.Role.USER, "active"));
    given().auth().oauth2(token).when().get("/api/work/tasks/" + task.id()).then().statusCode(200)
        .body("task.id", equalTo(task.id()));
  }

  @Test
  void aDemotedAdminLosesAdminEndpointsOnTheNextRequestWithTheSameToken() {
    FixtureServices.ACCOUNTS.put("u-ada", new Account("u-ada", "ada", Actor.Role.ADMIN, "active"));
    // The token still claims admin after the demotion; only the account row counts.
    String token = FixtureServices.token("u-ada", Actor.Role.ADMIN);
    given().auth().oauth2(token).when().get("/api/work/admin/tasks").then().statusCode(200);

    FixtureServices.ACCOUNTS.put("u-ada", new Account("u-ada", "ada", Actor.Role.USER, "active"));
    long served = FixtureServices.subjectsSeenFor("u-ada").stream().filter(TaskSubjects.ADMIN_TASKS::equals).count();
    given().auth().oauth2(token).when().get("/api/work/admin/tasks").then().statusCode(403)
        .contentType("application/problem+json").body("code", equalTo("forbidden"));
    assertThat(FixtureServices.subjectsSeenFor("u-ada").stream().filter(TaskSubjects.ADMIN_TASKS::equals).count())
        .isEqualTo(served);
    // Ordinary Work still answers, as the user she now is.
    given().auth().oauth2(token).when().get("/api/work/tasks").then().statusCode(200);
    assertThat(FixtureServices.SEEN_ACTORS.get(TaskSubjects.LIST)).isEqualTo(new Actor("u-ada", Actor.Role.USER));
  }

  @Test
  void aDemotedAdminsChangeIsMadeOnceAsTheUserSheIsNow() {
    FixtureServices.ACCOUNTS.put("u-ida", new Account("u-ida", "ida", Actor.Role.ADMIN, "active"));
    String token = FixtureServices.token("u-ida", Actor.Role.ADMIN);
    FixtureServices.ACCOUNTS.put("u-ida", new Account("u-ida", "ida", Actor.Role.USER, "active"));
    int before = FixtureServices.subjectsSeenFor("u-ida").size();

    given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("message", "hello", "provider", "ollama",
        "model", "qwen3")).when().post("/api/work/tasks").then().statusCode(201);

    // Refused as an admin before anything happened, the account read, then made once as a user.
    List<Subject<?, ?>> reached = FixtureServices.subjectsSeenFor("u-ida");
    assertThat(reached.subList(before, reached.size())).containsExactly(Subjects.ACCOUNT_GET, TaskSubjects.CREATE);
    assertThat(FixtureServices.SEEN_ACTORS.get(TaskSubjects.CREATE)).isEqualTo(new Actor("u-ida", Actor.Role.USER));
  }

  @Test
  void aDemotedAdminsStaleRoleNeverReachesHerSandbox() {
    FixtureServices.ACCOUNTS.put("u-ivy", new Account("u-ivy", "ivy", Actor.Role.ADMIN, "active"));
    String token = FixtureServices.token("u-ivy", Actor.Role.ADMIN);
    TaskView task = FixtureServices.seedTask("u-ivy");
    FixtureServices.ACCOUNTS.put("u-ivy", new Account("u-ivy", "ivy", Actor.Role.USER, "active"));

    given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("path", "notes.txt", "content", "hers"))
        .when().put("/api/work/tasks/" + task.id() + "/file").then().statusCode(200);

    // sandbox-service lets an admin header act on other owners' sandboxes: it must only ever see her stored role.
    assertThat(FixtureServices.SEEN_ACTORS.get(SandboxSubjects.FILES_WRITE)).isEqualTo(new Actor("u-ivy", Actor.Role.USER));
  }

  @Test
  void aTaskServiceRequestIsOneRoundTripThatTaskServiceChecksItself() {
    FixtureServices.ACCOUNTS.put("u-ron", new Account("u-ron", "ron", Actor.Role.USER, "active"));
    TaskView task = FixtureServices.seedTask("u-ron");
    String token = FixtureServices.token("u-ron");
    int before = FixtureServices.subjectsSeenFor("u-ron").size();

    given().auth().oauth2(token).when().get("/api/work/tasks/" + task.id()).then().statusCode(200);
    given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("title", "renamed"))
        .when().patch("/api/work/tasks/" + task.id()).then().statusCode(200).body("title", equalTo("renamed"));

    List<Subject<?, ?>> reached = FixtureServices.subjectsSeenFor("u-ron");
    assertThat(reached.subList(before, reached.size())).containsExactly(TaskSubjects.GET, TaskSubjects.UPDATE);
  }

  @Test
  void aPromotedUserIsAnAdminAtOnceThoughTheTokenSaysUser() {
    FixtureServices.ACCOUNTS.put("u-pam", new Account("u-pam", "pam", Actor.Role.USER, "active"));
    String token = FixtureServices.token("u-pam", Actor.Role.USER);
    given().auth().oauth2(token).when().get("/api/work/admin/tasks").then().statusCode(403).body("code", equalTo("forbidden"));
    FixtureServices.ACCOUNTS.put("u-pam", new Account("u-pam", "pam", Actor.Role.ADMIN, "active"));
    given().auth().oauth2(token).when().get("/api/work/admin/tasks").then().statusCode(200);
  }
}
