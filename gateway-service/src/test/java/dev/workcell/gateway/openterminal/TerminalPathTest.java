package dev.workcell.gateway.openterminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Client paths → what sandbox-service receives: always home-relative, never absolute or with '..'. */
@QuarkusTest
class TerminalPathTest {

  @BeforeEach
  void files() {
    HomeSandboxFixture.reset();
    HomeSandboxFixture.put("paths-user", "a", "top\n");
    HomeSandboxFixture.put("paths-user", "proj/a", "nested\n");
    HomeSandboxFixture.put("paths-user", "proj/", new byte[0]);
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
      "/home/user/a, a",
      "~/a, a",
      "a, a",
      "./a, a",
      "/home/user/proj//a, proj/a",
      "~/proj/./a, proj/a"})
  void acceptedPathsReachTheSandboxHomeRelative(String given, String sent) {
    Terminal.as("paths-user").queryParam("path", given).when().get("/files/read").then().statusCode(200)
        .body("path", equalTo("/home/user/" + sent));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.FILES_READ_BYTES, ReadBytes.class)).extracting(ReadBytes::path).containsExactly(sent);
  }

  @ParameterizedTest(name = "{0} refused with {1} {2}")
  @CsvSource({
      "../a, 403, path_escape",
      "proj/../../a, 403, path_escape",
      "/home/user/../etc/passwd, 403, path_escape",
      "/etc/passwd, 403, path_escape",
      "/proc/1/environ, 403, path_escape",
      "/home/userx/a, 403, path_escape",
      "/home/other/a, 403, path_escape",
      "'a\\b', 400, invalid_path"})
  void escapingPathsAreRefusedBeforeAnySandboxRequest(String given, int status, String code) {
    Terminal.as("paths-user").queryParam("path", given).when().get("/files/read").then().statusCode(status)
        .contentType("application/problem+json").body("code", equalTo(code));
    assertThat(HomeSandboxFixture.SEEN).isEmpty();
  }

  @Test
  void aNulInThePathIsRefused() {
    Terminal.as("paths-user").urlEncodingEnabled(false).when().get("/files/read?path=a%00b").then().statusCode(400)
        .body("code", equalTo("invalid_path"));
    assertThat(HomeSandboxFixture.SEEN).isEmpty();
  }

  @Test
  void relativePathsFollowTheSessionDirectoryAndOnlyForThatSession() {
    Terminal.as("paths-user", "chat-1").contentType("application/json").body("{\"path\":\"/home/user/proj\"}")
        .when().post("/files/cwd").then().statusCode(200).body("cwd", equalTo("/home/user/proj"));
    Terminal.as("paths-user", "chat-1").when().get("/files/cwd").then().body("cwd", equalTo("/home/user/proj"));
    Terminal.as("paths-user", "chat-1").queryParam("path", "a").when().get("/files/read").then().statusCode(200)
        .body("content", equalTo("nested\n"));
    Terminal.as("paths-user", "chat-2").queryParam("path", "a").when().get("/files/read").then().statusCode(200)
        .body("content", equalTo("top\n"));
    // The same session id of another user is another session.
    Terminal.as("someone-else", "chat-1").when().get("/files/cwd").then().body("cwd", equalTo("/home/user"));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.FILES_READ_BYTES, ReadBytes.class)).extracting(ReadBytes::path)
        .isEqualTo(List.of("proj/a", "a"));
  }

  @Test
  void theCwdMustBeAnExistingDirectory() {
    Terminal.as("paths-user", "chat-3").contentType("application/json").body("{\"path\":\"a\"}")
        .when().post("/files/cwd").then().statusCode(404).body("detail", equalTo("Directory not found"));
    Terminal.as("paths-user", "chat-3").contentType("application/json").body("{\"path\":\"missing\"}")
        .when().post("/files/cwd").then().statusCode(404);
  }

  @Test
  void everyRequestNamesTheCallersOwnHomeAsTheGateway() {
    Terminal.as("user with spaces/and:colons").when().get("/files/list").then().statusCode(200);
    var seen = HomeSandboxFixture.SEEN.get(0);
    assertThat(((dev.workcell.contracts.sandbox.ListFiles) seen.body()).sandbox())
        .isEqualTo(dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef.home("user with spaces/and:colons"));
    assertThat(seen.actor()).isEqualTo(dev.workcell.contracts.Actor.service(dev.workcell.contracts.ServiceName.GATEWAY));
  }
}
