package dev.workcell.gateway.openterminal;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** The terminal key and X-User-Id: refused requests are problems, never a shared account. */
@QuarkusTest
class TerminalAuthTest {

  @Test
  void aRequestWithoutTheKeyIsRefusedWithAProblem() {
    given().header("X-User-Id", "alice").when().get(Terminal.BASE + "/files/list")
        .then().statusCode(401).contentType("application/problem+json").body("code", equalTo("unauthenticated"))
        .body("detail", not(emptyOrNullString()));
  }

  @Test
  void aWrongKeyIsRefused() {
    given().header("Authorization", "Bearer test-terminal-kez").header("X-User-Id", "alice")
        .when().get(Terminal.BASE + "/execute").then().statusCode(401).body("code", equalTo("unauthenticated"))
        .body("detail", equalTo("Invalid API key"));
    given().header("Authorization", "Basic " + Terminal.KEY).header("X-User-Id", "alice")
        .when().get(Terminal.BASE + "/execute").then().statusCode(401);
  }

  @Test
  void aWorkApiTokenIsNotATerminalKey() {
    given().auth().oauth2(dev.workcell.gateway.fixture.FixtureServices.token("u-alice")).header("X-User-Id", "alice")
        .when().get(Terminal.BASE + "/files/cwd").then().statusCode(401).body("code", equalTo("unauthenticated"));
  }

  @Test
  void withoutXUserIdTheRequestIsRefusedAndReachesNoSandbox() {
    HomeSandboxFixture.reset();
    given().header("Authorization", "Bearer " + Terminal.KEY).when().get(Terminal.BASE + "/files/list")
        .then().statusCode(400).contentType("application/problem+json").body("code", equalTo("invalid_request"))
        .body("detail", org.hamcrest.Matchers.containsString("X-User-Id"));
    given().header("Authorization", "Bearer " + Terminal.KEY).header("X-User-Id", "  ").contentType("application/json")
        .body("{\"command\":\"id\"}").when().post(Terminal.BASE + "/execute").then().statusCode(400);
    org.assertj.core.api.Assertions.assertThat(HomeSandboxFixture.SEEN).isEmpty();
  }

  @Test
  void healthConfigAndTheToolDocumentNeedNoKey() {
    given().when().get(Terminal.BASE + "/health").then().statusCode(200).body("status", equalTo("ok"));
    given().when().get(Terminal.BASE + "/api/config").then().statusCode(200).body("features.notebooks", equalTo(false))
        .body("features.terminal", equalTo(true));
    given().when().get(Terminal.BASE + "/openapi.json").then().statusCode(200);
  }

  @Test
  void theKeyOpensTheApiForAUser() {
    Terminal.as("alice").when().get("/files/cwd").then().statusCode(200).body("cwd", equalTo("/home/user"))
        .body("home", equalTo("/home/user"));
  }
}
