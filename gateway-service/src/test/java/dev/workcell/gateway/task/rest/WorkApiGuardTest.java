package dev.workcell.gateway.task.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Authentication, ownership and input checks across every Work endpoint. */
@QuarkusTest
class WorkApiGuardTest {

  static final String ALICE = "u-alice";
  static final String BOB = "u-bob";

  /** One call of each endpoint on a task, with a valid body. */
  record Call(String method, String path, Object body) {
    Response send(RequestSpecification spec, String taskId) {
      RequestSpecification request = spec;
      if (body != null) {
        request = request.contentType(ContentType.JSON).body(body);
      }
      return request.request(method, path.replace("{id}", taskId));
    }
  }

  static List<Call> taskCalls() {
    return List.of(
        new Call("GET", "/api/work/tasks/{id}", null),
        new Call("GET", "/api/work/tasks/{id}/messages", null),
        new Call("PATCH", "/api/work/tasks/{id}", Map.of("title", "x")),
        new Call("DELETE", "/api/work/tasks/{id}", null),
        new Call("POST", "/api/work/tasks/{id}/runs", Map.of("message", "go on")),
        new Call("POST", "/api/work/tasks/{id}/messages", Map.of("message", "steer")),
        new Call("POST", "/api/work/tasks/{id}/cancel", null),
        new Call("GET", "/api/work/tasks/{id}/approvals", null),
        new Call("PUT", "/api/work/tasks/{id}/approvals", Map.of("enabled", true)),
        new Call("POST", "/api/work/tasks/{id}/approvals/ap-1", Map.of("decision", "deny")),
        new Call("DELETE", "/api/work/tasks/{id}/approval-rules/rule-1", null),
        new Call("GET", "/api/work/tasks/{id}/files?path=", null),
        new Call("GET", "/api/work/tasks/{id}/file?path=a.txt", null),
        new Call("PUT", "/api/work/tasks/{id}/file", Map.of("path", "a.txt", "content", "x")),
        new Call("GET", "/api/work/tasks/{id}/git", null),
        new Call("GET", "/api/work/tasks/{id}/git/diff", null),
        new Call("POST", "/api/work/tasks/{id}/git/init", null),
        new Call("POST", "/api/work/tasks/{id}/git/commit", Map.of("message", "x")),
        new Call("POST", "/api/work/tasks/{id}/preview/start", Map.of()),
        new Call("POST", "/api/work/tasks/{id}/preview/stop", null),
        new Call("GET", "/api/work/tasks/{id}/runs/run-1/events", null));
  }

  @Test
  void missingMalformedExpiredAndForeignTokensAreA401Problem() throws Exception {
    String expired = Jwt.issuer("workcell").subject(ALICE).issuedAt(Instant.now().minusSeconds(7200))
        .expiresAt(Instant.now().minusSeconds(3600)).sign();
    var foreignKey = KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate();
    String foreign = Jwt.issuer("workcell").subject(ALICE).expiresIn(600).sign(foreignKey);
    for (String path : List.of("/api/work/tasks", "/api/work/capabilities", "/api/auth/me")) {
      given().when().get(path).then().statusCode(401).contentType("application/problem+json")
          .body("code", equalTo("unauthenticated"));
      for (String bad : List.of("not-a-jwt", "a.b.c", expired, foreign)) {
        given().auth().oauth2(bad).when().get(path).then().statusCode(401).contentType("application/problem+json")
            .body("code", equalTo("unauthenticated"));
      }
    }
  }

  @Test
  void aDisabledAccountIsRefusedOnItsNextRequest() {
    FixtureServices.ACCOUNTS.put("u-dora", new Account("u-dora", "dora", Actor.Role.USER, "active"));
    String token = token("u-dora");
    given().auth().oauth2(token).when().get("/api/work/tasks").then().statusCode(200);
    FixtureServices.ACCOUNTS.put("u-dora", new Account("u-dora", "dora", Actor.Role.USER, "disabled"));
    given().auth().oauth2(token).when().get("/api/work/tasks").then().statusCode(403)
        .contentType("application/problem+json").body("code", equalTo("account_disabled"));
  }

  @Test
  void oneUsersTaskIsNotFoundForAnotherOnEveryEndpoint() {
    TaskView alices = FixtureServices.seedTask(ALICE);
    for (Call call : taskCalls()) {
      Response response = call.send(given().auth().oauth2(token(BOB)), alices.id());
      assertThat(response.statusCode()).as(call.method() + " " + call.path()).isEqualTo(404);
      assertThat(response.contentType()).as(call.path()).startsWith("application/problem+json");
      assertThat(response.jsonPath().getString("code")).isEqualTo("not_found");
    }
    // The ticket endpoint names the task in its body.
    given().auth().oauth2(token(BOB)).contentType(ContentType.JSON).body(Map.of("audience", "terminal", "taskId", alices.id()))
        .when().post("/api/auth/websocket-ticket").then().statusCode(404).body("code", equalTo("not_found"));
    // ...and alice still has it.
    given().auth().oauth2(token(ALICE)).when().get("/api/work/tasks/" + alices.id()).then().statusCode(200);
  }

  @Test
  void aFilePartGoesToTheOwnersSandboxOnlyAndABadOneIsA400Problem() {
    TaskView alices = FixtureServices.seedTask(ALICE);
    String url = "/api/work/tasks/" + alices.id() + "/file/part";
    given().auth().oauth2(token(BOB)).contentType("application/octet-stream").body(new byte[] {1, 2}).queryParam("path", "a.bin")
        .queryParam("upload", "0123456789abcdef").queryParam("offset", 0).queryParam("last", true)
        .when().put(url).then().statusCode(404).body("code", equalTo("not_found"));
    given().auth().oauth2(token(ALICE)).contentType("application/octet-stream").body(new byte[] {1, 2}).queryParam("path", "a.bin")
        .queryParam("upload", "0123456789abcdef").queryParam("offset", 5).queryParam("last", true)
        .when().put(url).then().statusCode(200).body("size", equalTo(7)).body("version", equalTo("v"));
    given().auth().oauth2(token(ALICE)).contentType("application/octet-stream").body(new byte[] {1}).queryParam("path", "a.bin")
        .queryParam("upload", "0123456789ABCDEF").queryParam("offset", 0)
        .when().put(url).then().statusCode(400).contentType("application/problem+json").body("code", equalTo("invalid_request"));
    given().auth().oauth2(token(ALICE)).contentType("application/octet-stream").body(new byte[] {1}).queryParam("path", "../a.bin")
        .queryParam("upload", "0123456789abcdef").queryParam("offset", 0)
        .when().put(url).then().statusCode(400).contentType("application/problem+json");
  }

  @Test
  void aMessageOneCharacterOverTheLimitIsRefusedWithItsCode() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String tooLong = "x".repeat(65_537);
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("message", tooLong, "provider", "ollama", "model", "qwen3"))
        .when().post("/api/work/tasks").then().statusCode(413).contentType("application/problem+json")
        .body("code", equalTo("message_too_long"));
    for (String path : List.of("/runs", "/messages")) {
      given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("message", tooLong))
          .when().post("/api/work/tasks/" + task.id() + path).then().statusCode(413).body("code", equalTo("message_too_long"));
    }
    // Within 65,536 characters but over 65,536 UTF-8 bytes.
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("message", "å".repeat(40_000)))
        .when().post("/api/work/tasks/" + task.id() + "/runs").then().statusCode(413).body("code", equalTo("message_too_long"));
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("message", "x".repeat(65_536)))
        .when().post("/api/work/tasks/" + task.id() + "/runs").then().statusCode(201);
  }

  /** The title limit is task-service's (contracts Limits): one over it is refused here with the code it would give. */
  @Test
  void aTitleOneCharacterOverTheLimitIsRefusedWithTheCodeTaskServiceGives() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String over = "t".repeat(Limits.TITLE_MAX_CHARS + 1);
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("message", "hi", "provider", "ollama", "model", "qwen3", "title", over))
        .when().post("/api/work/tasks").then().statusCode(400).contentType("application/problem+json")
        .body("code", equalTo("invalid_request")).body("detail", equalTo("the title exceeds 200 characters"));
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("title", over))
        .when().patch("/api/work/tasks/" + task.id()).then().statusCode(400).body("code", equalTo("invalid_request"));
    // Surrounding blanks do not count, as in task-service.
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("title", " " + "t".repeat(Limits.TITLE_MAX_CHARS) + " "))
        .when().patch("/api/work/tasks/" + task.id()).then().statusCode(200);
  }

  /** Values of the contract's enums that a client names: an unknown one is a 400 problem, never a 500. */
  @Test
  void anUnknownProviderKindOrApprovalDecisionIsA400Problem() {
    TaskView task = FixtureServices.seedTask(ALICE);
    for (String provider : List.of("nope", "OLLAMA-CLOUD", "", " ")) {
      given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
          .body(Map.of("message", "hi", "provider", provider, "model", "qwen3"))
          .when().post("/api/work/tasks").then().statusCode(400).contentType("application/problem+json")
          .body("code", equalTo("invalid_request"));
    }
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("provider", "nope"))
        .when().patch("/api/work/tasks/" + task.id()).then().statusCode(400).body("code", equalTo("invalid_request"));
    for (String decision : List.of("maybe", "ALLOW_ONCE", "rule", "timeout", "not_required", "")) {
      given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("decision", decision))
          .when().post("/api/work/tasks/" + task.id() + "/approvals/ap-1").then().statusCode(400)
          .contentType("application/problem+json").body("code", equalTo("invalid_request"))
          .body("detail", equalTo("decision must be allow_once, always_allow or deny"));
    }
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body(Map.of("decision", "allow_once"))
        .when().post("/api/work/tasks/" + task.id() + "/approvals/ap-1").then().statusCode(200)
        .body("state", equalTo("allowed")).body("decision", equalTo("allow_once"));
  }

  @Test
  void malformedJsonIsA400Problem() {
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON).body("{\"message\": \"unterminated")
        .when().post("/api/work/tasks").then().statusCode(400).contentType("application/problem+json")
        .body("code", equalTo("malformed_json"));
  }

  @Test
  void anOversizedBodyIsA413Problem() throws Exception {
    TaskView task = FixtureServices.seedTask(ALICE);
    String huge = "{\"path\":\"a.txt\",\"content\":\"" + "x".repeat(13 * 1024 * 1024) + "\"}";
    // Expect: 100-continue lets the server refuse before the client streams 13 MB into a closed socket.
    HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder()
        .uri(URI.create("http://127.0.0.1:" + RestAssured.port + "/api/work/tasks/" + task.id() + "/file"))
        .header("Authorization", "Bearer " + token(ALICE)).header("Content-Type", "application/json").expectContinue(true)
        .PUT(HttpRequest.BodyPublishers.ofString(huge)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/problem+json"));
    assertThat(response.body()).contains("\"code\":\"payload_too_large\"");
    // Under the body limit but over the 2,000,000-byte file limit.
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("path", "a.txt", "content", "x".repeat(2_000_001)))
        .when().put("/api/work/tasks/" + task.id() + "/file").then().statusCode(413).body("code", equalTo("file_too_large"));
  }

  @Test
  void badInputsAcrossAllEndpointsNeverCauseA5xx() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String t = "/api/work/tasks/" + task.id();
    List<Object[]> cases = new ArrayList<>();
    // method, path, content type, raw body
    String[] bodies = {null, "", "{", "[]", "null", "42", "\"text\"", "{\"message\":{}}", "{\"message\":[1,2]}",
        "{\"enabled\":\"maybe\"}", "{\"decision\":7}", "{\"path\":\"../etc/passwd\",\"content\":\"x\"}",
        "{\"path\":\"/abs\",\"content\":\"x\"}", "{\"path\":\"a\\u0000b\",\"content\":\"x\"}", "{\"message\":\"\"}",
        "{\"message\":\"hi\",\"provider\":\"nope\",\"model\":\"m\"}", "{\"message\":\"hi\",\"provider\":\"ollama\",\"model\":\""
            + "m".repeat(501) + "\"}", "{\"command\":5}", "{\"audience\":\"printer\",\"taskId\":\"x\"}"};
    String[][] endpoints = {
        {"POST", "/api/work/tasks"}, {"PATCH", t}, {"POST", t + "/runs"}, {"POST", t + "/messages"},
        {"PUT", t + "/approvals"}, {"POST", t + "/approvals/ap-1"}, {"PUT", t + "/file"},
        {"POST", t + "/preview/start"}, {"POST", "/api/auth/websocket-ticket"}};
    for (String[] endpoint : endpoints) {
      for (String body : bodies) {
        for (String type : new String[] {"application/json", "text/plain"}) {
          cases.add(new Object[] {endpoint[0], endpoint[1], type, body});
        }
      }
    }
    for (String query : List.of("?path=../x", "?path=/etc", "?path=a%00b", "?path=" + "a".repeat(1100), "")) {
      cases.add(new Object[] {"GET", t + "/file" + query, null, null});
      cases.add(new Object[] {"GET", t + "/files" + query, null, null});
    }
    for (String query : List.of("?limit=abc", "?limit=-1", "?limit=100000", "?before=x", "?before=-5")) {
      cases.add(new Object[] {"GET", t + "/messages" + query, null, null});
    }
    for (String query : List.of("?after=abc", "?after=-1")) {
      cases.add(new Object[] {"GET", t + "/runs/r1/events" + query, null, null});
    }
    for (String id : List.of("%20", "a.b", "a*", "..", "x".repeat(300), "%E2%98%83")) {
      cases.add(new Object[] {"GET", "/api/work/tasks/" + id, null, null});
      cases.add(new Object[] {"GET", "/api/work/tasks/" + id + "/runs/" + id + "/events", null, null});
    }
    int refused = 0;
    for (Object[] c : cases) {
      RequestSpecification request = given().auth().oauth2(token(ALICE)).urlEncodingEnabled(false);
      if (c[2] != null) {
        request = request.contentType(c[2] + "; charset=UTF-8");
      }
      if (c[3] != null) {
        request = request.body((String) c[3]);
      }
      Response response = request.request((String) c[0], (String) c[1]);
      String label = c[0] + " " + c[1] + " [" + c[2] + "] " + c[3] + " -> " + response.statusCode() + " "
          + response.contentType() + " " + response.asString();
      assertThat(response.statusCode()).as(label).isLessThan(500);
      if (response.statusCode() >= 400) {
        assertThat(response.contentType()).as(label).startsWith("application/problem+json");
        assertThat(response.jsonPath().getString("code")).as(label).isNotBlank();
      }
      refused += response.statusCode() >= 400 ? 1 : 0;
    }
    // Almost every case is refused; a few are harmless (an unknown field is ignored, a preview without a command).
    assertThat(refused).isGreaterThan(cases.size() * 9 / 10);
  }

  @Test
  void admissionRefusalsCarryRetryAfter() {
    given().auth().oauth2(token(ALICE)).contentType(ContentType.JSON)
        .body(Map.of("message", "one too many", "provider", "ollama", "model", "qwen3", "title", FixtureServices.OVER_LIMIT))
        .when().post("/api/work/tasks").then().statusCode(429).header("Retry-After", "30")
        .contentType("application/problem+json").body("code", equalTo("too_many_tasks"));
  }
}
