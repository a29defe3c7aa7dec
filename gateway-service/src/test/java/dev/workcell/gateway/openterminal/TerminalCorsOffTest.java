package dev.workcell.gateway.openterminal;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** By default: no CORS headers, and a request without X-User-Id is refused (TerminalAuthTest). */
@QuarkusTest
class TerminalCorsOffTest {

  @Test
  void noOriginIsAllowedUnlessConfigured() {
    given().basePath(Terminal.BASE).header("Origin", "https://chat.example").header("Access-Control-Request-Method", "GET")
        .options("/files/list").then().header("Access-Control-Allow-Origin", nullValue());
    given().header("Authorization", "Bearer " + Terminal.KEY).basePath(Terminal.BASE).header("Origin", "https://chat.example")
        .header("X-User-Id", "u").get("/files/cwd").then().header("Access-Control-Allow-Origin", nullValue());
  }
}
