package dev.workcell.gateway.openterminal;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Malformed requests get a 4xx problem with a detail — never a 5xx, never a hang. */
@QuarkusTest
class TerminalBadInputTest {

  record Case(String name, Function<RequestSpecification, Response> call) {}

  @Test
  void noBadInputCausesA5xx() {
    HomeSandboxFixture.reset();
    List<Case> cases = List.of(
        new Case("read without path", r -> r.get("/files/read")),
        new Case("read start_line 0", r -> r.queryParam("path", "a").queryParam("start_line", 0).get("/files/read")),
        new Case("read start_line text", r -> r.queryParam("path", "a").queryParam("start_line", "x").get("/files/read")),
        new Case("grep without query", r -> r.get("/files/grep")),
        new Case("grep max_results 501", r -> r.queryParam("query", "a").queryParam("max_results", 501).get("/files/grep")),
        new Case("grep regex maybe", r -> r.queryParam("query", "a").queryParam("regex", "maybe").get("/files/grep")),
        new Case("glob bad type", r -> r.queryParam("pattern", "*").queryParam("type", "socket").get("/files/glob")),
        new Case("write no body", r -> r.contentType("application/json").post("/files/write")),
        new Case("write broken json", r -> r.contentType("application/json").body("{\"path\":").post("/files/write")),
        new Case("write wrong types", r -> r.contentType("application/json").body("{\"path\":[1],\"content\":{}}").post("/files/write")),
        new Case("write without content", r -> r.contentType("application/json").body("{\"path\":\"a\"}").post("/files/write")),
        new Case("write too large", r -> r.contentType("application/json")
            .body("{\"path\":\"a\",\"content\":\"" + "x".repeat(2_000_001) + "\"}").post("/files/write")),
        new Case("replace null chunk", r -> r.contentType("application/json").body("{\"path\":\"a\",\"replacements\":[null]}")
            .post("/files/replace")),
        new Case("execute no command", r -> r.contentType("application/json").body("{}").post("/execute")),
        new Case("execute wait -1", r -> r.contentType("application/json").body("{\"command\":\"x\"}").queryParam("wait", -1).post("/execute")),
        new Case("execute wait NaN", r -> r.contentType("application/json").body("{\"command\":\"x\"}").queryParam("wait", "NaN").post("/execute")),
        new Case("execute bad env name", r -> r.contentType("application/json").body("{\"command\":\"x\",\"env\":{\"A B\":\"1\"}}").post("/execute")),
        new Case("execute huge command", r -> r.contentType("application/json").body("{\"command\":\"" + "x".repeat(20_001) + "\"}").post("/execute")),
        new Case("status odd id", r -> r.get("/execute/..%2F..%2Fetc/status")),
        new Case("status offset -1", r -> r.queryParam("offset", -1).get("/execute/abc/status")),
        new Case("input without input", r -> r.contentType("application/json").body("{}").post("/execute/abc/input")),
        new Case("kill force maybe", r -> r.queryParam("force", "maybe").delete("/execute/abc")),
        new Case("view without path", r -> r.get("/files/view")),
        new Case("serve outside", r -> r.get("/files/serve/etc/passwd")),
        new Case("upload without file", r -> r.contentType("multipart/form-data").multiPart("other", "x").queryParam("directory", "a")
            .post("/files/upload")),
        new Case("archive empty", r -> r.contentType("application/json").body("{\"paths\":[]}").post("/files/archive")),
        new Case("archive escape", r -> r.contentType("application/json").body("{\"paths\":[\"../x\"]}").post("/files/archive")),
        new Case("delete home", r -> r.queryParam("path", "/home/user").delete("/files/delete")),
        new Case("move onto home", r -> r.contentType("application/json").body("{\"source\":\"a\",\"destination\":\"~\"}").post("/files/move")),
        new Case("cwd no body", r -> r.contentType("application/json").post("/files/cwd")),
        new Case("list missing", r -> r.queryParam("directory", "missing-dir").get("/files/list")));
    for (Case c : cases) {
      Response response = c.call().apply(Terminal.as("bad-input-user"));
      assertThat(response.statusCode()).as(c.name()).isBetween(400, 499);
      assertThat(response.contentType()).as(c.name()).startsWith("application/problem+json");
      assertThat(response.jsonPath().getString("detail")).as(c.name()).isNotBlank();
    }
  }
}
