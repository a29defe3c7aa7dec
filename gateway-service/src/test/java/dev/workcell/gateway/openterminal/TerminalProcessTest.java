package dev.workcell.gateway.openterminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.PollProcess;
import dev.workcell.contracts.sandbox.ProcessInput;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.StartProcess;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** /execute: shapes as Open Terminal answers them, what reaches sandbox-service, and per-user processes. */
@QuarkusTest
class TerminalProcessTest {

  @BeforeEach
  void reset() {
    HomeSandboxFixture.reset();
    HomeSandboxFixture.put("proc-user", "proj/", new byte[0]);
  }

  @Test
  void aCommandWithWaitAnswersWithItsOutputInOpenTerminalsShape() {
    Terminal.as("proc-user").contentType("application/json").body(Map.of("command", "echo hello"))
        .queryParam("wait", "2.5").when().post("/execute").then().statusCode(200)
        .body("id", org.hamcrest.Matchers.notNullValue()).body("command", equalTo("echo hello"))
        .body("status", equalTo("done")).body("exit_code", equalTo(0))
        .body("output", hasSize(1)).body("output[0].type", equalTo("stdout")).body("output[0].data", equalTo("hello\n"))
        .body("next_offset", equalTo(1)).body("truncated", equalTo(false)).body("log_path", nullValue());
    StartProcess start = HomeSandboxFixture.seen(SandboxSubjects.PROCESS_START, StartProcess.class).get(0);
    assertThat(start.waitMs()).isEqualTo(2500L);
    assertThat(start.cwd()).isNull();
    assertThat(start.tty()).as("every command on a terminal, as upstream").isTrue();
  }

  @Test
  void theCwdIsTheSessionsOrTheRequestsResolvedInTheHome() {
    Terminal.as("proc-user", "c1").contentType("application/json").body("{\"path\":\"proj\"}").post("/files/cwd").then().statusCode(200);
    Terminal.as("proc-user", "c1").contentType("application/json").body(Map.of("command", "echo a")).post("/execute").then().statusCode(200);
    Terminal.as("proc-user", "c1").contentType("application/json").body(Map.of("command", "echo b", "cwd", "/home/user"))
        .post("/execute").then().statusCode(200);
    Terminal.as("proc-user", "c1").contentType("application/json").body(Map.of("command", "echo c", "cwd", "/tmp"))
        .post("/execute").then().statusCode(403).body("code", equalTo("path_escape"));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.PROCESS_START, StartProcess.class)).extracting(StartProcess::cwd)
        .containsExactly("proj", null);
  }

  @Test
  void aRunningProcessIsPolledFedInputAndKilled() {
    String id = Terminal.as("proc-user").contentType("application/json").body(Map.of("command", "cat"))
        .when().post("/execute").then().statusCode(200).body("status", equalTo("running")).body("exit_code", nullValue())
        .extract().path("id");
    Terminal.as("proc-user").contentType("application/json").body(Map.of("input", "abc\\n\\x03"))
        .when().post("/execute/" + id + "/input").then().statusCode(200).body("status", equalTo("ok"));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.PROCESS_INPUT, ProcessInput.class).get(0).input()).isEqualTo("abc\n\u0003");
    Terminal.as("proc-user").queryParam("offset", 0).queryParam("wait", 1).when().get("/execute/" + id + "/status")
        .then().statusCode(200).body("output[0].data", equalTo("abc\n\u0003")).body("next_offset", equalTo(1));
    Terminal.as("proc-user").queryParam("offset", 1).when().get("/execute/" + id + "/status")
        .then().statusCode(200).body("output", hasSize(0)).body("next_offset", equalTo(1));
    PollProcess poll = HomeSandboxFixture.seen(SandboxSubjects.PROCESS_STATUS, PollProcess.class).get(0);
    assertThat(poll.waitMs()).isEqualTo(1000L);
    Terminal.as("proc-user").when().get("/execute").then().statusCode(200).body("[0].id", equalTo(id))
        .body("[0].status", equalTo("running"));
    Terminal.as("proc-user").queryParam("force", true).when().delete("/execute/" + id).then().statusCode(200)
        .body("status", equalTo("killed"));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.PROCESS_KILL, KillProcess.class).get(0).force()).isTrue();
    Terminal.as("proc-user").contentType("application/json").body(Map.of("input", "more"))
        .when().post("/execute/" + id + "/input").then().statusCode(400).body("code", equalTo("process_exited"));
  }

  @Test
  void anotherUsersProcessIsNotFound() {
    String id = Terminal.as("proc-user").contentType("application/json").body(Map.of("command", "sleep 100"))
        .when().post("/execute").then().statusCode(200).extract().path("id");
    Terminal.as("intruder").when().get("/execute/" + id + "/status").then().statusCode(404).body("code", equalTo("not_found"));
    Terminal.as("intruder").when().delete("/execute/" + id).then().statusCode(404);
    Terminal.as("intruder").contentType("application/json").body(Map.of("input", "x")).when().post("/execute/" + id + "/input")
        .then().statusCode(404);
    Terminal.as("intruder").when().get("/execute").then().statusCode(200).body("$", hasSize(0));
  }

  @Test
  void tailAndWaitBoundsAreChecked() {
    Terminal.as("proc-user").contentType("application/json").body(Map.of("command", "echo x")).queryParam("wait", 301)
        .post("/execute").then().statusCode(400).body("code", equalTo("invalid_request"));
    Terminal.as("proc-user").contentType("application/json").body(Map.of("command", "echo x")).queryParam("tail", 0)
        .post("/execute").then().statusCode(400);
    Terminal.as("proc-user").contentType("application/json").body(Map.of("command", "echo x")).queryParam("wait", "null")
        .queryParam("tail", 5).post("/execute").then().statusCode(200);
    StartProcess start = HomeSandboxFixture.seen(SandboxSubjects.PROCESS_START, StartProcess.class).get(0);
    assertThat(start.waitMs()).isZero();
    assertThat(start.tail()).isEqualTo(5);
  }
}
