package dev.workcell.gateway.openterminal;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;

import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Single-user mode and CORS, as a browser calls a user-configured terminal directly (only the key,
 * no X-User-Id), and downloads beyond the image cap (set small here).
 */
@QuarkusTest
@TestProfile(TerminalDirectConnectionTest.SingleUser.class)
class TerminalDirectConnectionTest {

  static final String ORIGIN = "https://chat.example";
  /** terminal-service as the gateway relays /api/terminals to it: every request gets a created session. */
  static final int TERMINALS_PORT = startTerminalService();

  public static class SingleUser implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.terminal.single-user-id", "solo", "workcell.terminal.cors-origins", ORIGIN + ",https://other.example",
          "workcell.terminal.view-max-bytes", "1000", "workcell.terminal.service-url", "http://127.0.0.1:" + TERMINALS_PORT);
    }
  }

  static int startTerminalService() {
    return Vertx.vertx().createHttpServer()
        .requestHandler(r -> r.response().putHeader("Content-Type", "application/json")
            .end("{\"id\":\"t1\",\"pid\":7,\"created_at\":\"2026-01-01T00:00:00Z\"}"))
        .listen(0).toCompletionStage().toCompletableFuture().join().actualPort();
  }

  @BeforeEach
  void reset() {
    HomeSandboxFixture.reset();
  }

  @Test
  void aRequestWithoutAUserWorksAsTheConfiguredOne() {
    HomeSandboxFixture.put("solo", "mine.txt", "m");
    given().header("Authorization", "Bearer " + Terminal.KEY).basePath(Terminal.BASE).get("/files/list").then().statusCode(200)
        .body("entries[0].name", equalTo("mine.txt"));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.FILES_LIST, ListFiles.class).get(0).sandbox().homeUserId()).isEqualTo("solo");
    // A named user still gets their own sandbox, and the key is still required.
    Terminal.as("someone").get("/files/list").then().statusCode(200).body("entries.size()", equalTo(0));
    given().basePath(Terminal.BASE).get("/files/list").then().statusCode(401);
  }

  @Test
  void aPreflightFromAnAllowedOriginIsAnsweredWithoutTheKey() {
    given().basePath(Terminal.BASE).header("Origin", ORIGIN).header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "authorization,content-type").options("/files/write").then()
        .statusCode(204).header("Access-Control-Allow-Origin", ORIGIN)
        .header("Access-Control-Allow-Headers", "authorization,content-type");
    given().header("Authorization", "Bearer " + Terminal.KEY).basePath(Terminal.BASE).header("Origin", ORIGIN)
        .get("/files/cwd").then().statusCode(200).header("Access-Control-Allow-Origin", ORIGIN);
    given().basePath(Terminal.BASE).header("Origin", "https://evil.example").get("/health").then().statusCode(200)
        .header("Access-Control-Allow-Origin", nullValue());
    // The Work API answers no cross-origin caller.
    given().header("Origin", ORIGIN).get("/q/health/live").then().header("Access-Control-Allow-Origin", nullValue());
  }

  /** Upstream's CORS middleware covers its whole app, /api/terminals included (relayed here to terminal-service). */
  @Test
  void theTerminalsApiAnswersTheConfiguredOriginAsUpstreamDoes() {
    given().basePath(Terminal.BASE).header("Origin", ORIGIN).header("Access-Control-Request-Method", "DELETE")
        .header("Access-Control-Request-Headers", "authorization").options("/api/terminals/t1").then()
        .statusCode(204).header("Access-Control-Allow-Origin", ORIGIN)
        .header("Access-Control-Allow-Methods", containsString("DELETE")).header("Access-Control-Allow-Headers", "authorization");
    given().header("Authorization", "Bearer " + Terminal.KEY).basePath(Terminal.BASE).header("Origin", ORIGIN)
        .post("/api/terminals").then().statusCode(200).body("id", equalTo("t1"))
        .header("Access-Control-Allow-Origin", ORIGIN).header("Access-Control-Allow-Credentials", "true");
    given().header("Authorization", "Bearer " + Terminal.KEY).basePath(Terminal.BASE).header("Origin", "https://evil.example")
        .get("/api/terminals").then().statusCode(200).header("Access-Control-Allow-Origin", nullValue());
  }

  @Test
  void viewAndServeStreamFilesBeyondTheImageCapWhileReadFileOfAnImageKeepsIt() {
    byte[] data = new byte[5000];
    data[4999] = 9;
    HomeSandboxFixture.put("solo", "big.png", data);
    // A streamed answer carries the CORS headers too (a REST response filter never saw it).
    byte[] viewed = given().header("Authorization", "Bearer " + Terminal.KEY).basePath(Terminal.BASE).queryParam("path", "big.png")
        .header("Origin", ORIGIN).get("/files/view").then().statusCode(200)
        .header("Access-Control-Allow-Origin", ORIGIN).header("Access-Control-Expose-Headers", containsString("Content-Disposition"))
        .extract().asByteArray();
    assertThat(viewed).isEqualTo(data);
    given().header("Authorization", "Bearer " + Terminal.KEY).basePath(Terminal.BASE).get("/files/serve/home/user/big.png")
        .then().statusCode(200).header("Content-Length", "5000");
    given().header("Authorization", "Bearer " + Terminal.KEY).basePath(Terminal.BASE).queryParam("path", "big.png")
        .get("/files/read").then().statusCode(413);
  }
}
