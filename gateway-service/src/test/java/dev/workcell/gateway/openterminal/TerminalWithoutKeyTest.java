package dev.workcell.gateway.openterminal;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A gateway without a terminal key refuses every terminal call but the open ones, whatever key is sent. */
@QuarkusTest
@TestProfile(TerminalWithoutKeyTest.NoKey.class)
class TerminalWithoutKeyTest {

  public static class NoKey implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.terminal.server-key", "", "workcell.terminal.server-key-file", "/nonexistent/terminal-key");
    }
  }

  @Test
  void everyTerminalCallIsRefused() {
    for (String key : new String[] {"", Terminal.KEY, "anything"}) {
      given().header("Authorization", "Bearer " + key).header("X-User-Id", "alice").when().get(Terminal.BASE + "/files/list")
          .then().statusCode(401).contentType("application/problem+json").body("code", equalTo("unauthenticated"));
    }
  }

  @Test
  void healthStillAnswers() {
    given().when().get(Terminal.BASE + "/health").then().statusCode(200).body("status", equalTo("ok"));
  }
}
