package dev.workcell.gateway.openterminal;

import static io.restassured.RestAssured.given;

import io.restassured.specification.RequestSpecification;

/** Requests as OpenWebUI sends them: the terminal key, the user, optionally the chat. */
final class Terminal {

  static final String KEY = "test-terminal-key";
  static final String BASE = "/api/open-terminal";

  private Terminal() {}

  static RequestSpecification as(String user) {
    return given().header("Authorization", "Bearer " + KEY).header("X-User-Id", user).basePath(BASE);
  }

  static RequestSpecification as(String user, String session) {
    return as(user).header("X-Session-Id", session);
  }
}
