package dev.workcell.gateway.openterminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.hasItem;

import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Where OpenWebUI's file browser and model met answers that upstream Open Terminal does not give (issue 17). */
@QuarkusTest
class TerminalParityTest {

  static final String U = "parity-user";

  @BeforeEach
  void reset() {
    HomeSandboxFixture.reset();
  }

  @Test
  void theHomeIsADirectoryForEveryOperationThatTakesOne() throws Exception {
    HomeSandboxFixture.put(U, "probe/", new byte[0]);
    HomeSandboxFixture.put(U, "probe/a.txt", "a");
    Terminal.as(U, "chat").contentType("application/json").body(Map.of("path", "/home/user/probe")).post("/files/cwd")
        .then().statusCode(200).body("cwd", equalTo("/home/user/probe"));
    for (String home : new String[] {"/home/user", "/home/user/", "~"}) {
      Terminal.as(U, "chat").contentType("application/json").body(Map.of("path", home)).post("/files/cwd")
          .then().statusCode(200).body("cwd", equalTo("/home/user"));
    }
    Terminal.as(U, "chat").get("/files/cwd").then().statusCode(200).body("cwd", equalTo("/home/user"));
    // Back at Home, the model's relative path lands below the home, not below the last folder.
    Terminal.as(U, "chat").contentType("application/json").body(Map.of("path", "probe/site/index.html", "content", "<p/>"))
        .post("/files/write").then().statusCode(200).body("path", equalTo("/home/user/probe/site/index.html"));
    Terminal.as(U).contentType("application/json").body(Map.of("path", "/home/user/")).post("/files/mkdir")
        .then().statusCode(200).body("path", equalTo("/home/user"));
    Terminal.as(U).queryParam("path", "/home/user").get("/files/display").then().statusCode(200).body("exists", equalTo(false));
    byte[] zip = Terminal.as(U).contentType("application/json").body(Map.of("paths", List.of("/home/user/")))
        .post("/files/archive").then().statusCode(200).header("Content-Disposition", equalTo("attachment; filename=\"user.zip\""))
        .extract().asByteArray();
    assertThat(names(zip)).containsExactlyInAnyOrder("user/probe/a.txt", "user/probe/site/index.html");
  }

  @Test
  void aFileDirectoryMixUpIsNotFoundAsUpstreamAnswersIt() {
    HomeSandboxFixture.put(U, "d/", new byte[0]);
    HomeSandboxFixture.put(U, "f.txt", "x");
    Terminal.as(U).queryParam("path", "d").get("/files/read").then().statusCode(404).body("detail", equalTo("File not found"));
    Terminal.as(U).queryParam("path", "/home/user").get("/files/read").then().statusCode(404);
    Terminal.as(U).queryParam("directory", "f.txt").get("/files/list").then().statusCode(404)
        .body("detail", equalTo("Directory not found"));
    Terminal.as(U).contentType("application/json").body(Map.of("path", "d", "replacements", List.of(Map.of("target", "a", "replacement", "b"))))
        .post("/files/replace").then().statusCode(404);
    Terminal.as(U).queryParam("pattern", "*").queryParam("path", "f.txt").get("/files/glob").then().statusCode(404)
        .body("detail", equalTo("Search directory not found"));
    Terminal.as(U).contentType("application/json").body(Map.of("path", "f.txt")).post("/files/cwd").then().statusCode(404);
    Terminal.as(U).contentType("application/json").body(Map.of("path", "nope")).post("/files/cwd").then().statusCode(404);
    Terminal.as(U).queryParam("path", "d").get("/files/view").then().statusCode(404);
    Terminal.as(U).contentType("application/json").body(Map.of("source", "nope", "destination", "x")).post("/files/move")
        .then().statusCode(404).body("detail", equalTo("Source path not found"));
    Terminal.as(U).contentType("application/json").body(Map.of("source", "f.txt", "destination", "missing/f.txt"))
        .post("/files/move").then().statusCode(400).body("detail", equalTo("Destination parent directory not found"));
  }

  @Test
  void aLineRangeOfATextFileOverTwoMegabytesReadsOnlyItsLines() {
    StringBuilder big = new StringBuilder();
    for (int i = 1; i <= 200_000; i++) {
      big.append("line ").append(i).append('\n');
    }
    assertThat(big.length()).isGreaterThan(2_000_000);
    HomeSandboxFixture.put(U, "big.log", big.toString());
    Terminal.as(U).queryParam("path", "big.log").queryParam("start_line", 190_000).queryParam("end_line", 190_001)
        .get("/files/read").then().statusCode(200).body("total_lines", equalTo(200_000))
        .body("content", equalTo("line 190000\nline 190001\n"));
    Terminal.as(U).queryParam("path", "big.log").get("/files/read").then().statusCode(413);
  }

  @Test
  void crlfIsReadAndReplacedAsUpstreamNormalisesIt() {
    HomeSandboxFixture.put(U, "w.txt", "one\r\ntwo\rthree\n");
    Terminal.as(U).queryParam("path", "w.txt").get("/files/read").then().statusCode(200)
        .body("total_lines", equalTo(3)).body("content", equalTo("one\ntwo\nthree\n"));
    Terminal.as(U).contentType("application/json").body(Map.of("path", "w.txt", "replacements",
        List.of(Map.of("target", "two\nthree", "replacement", "2\n3")))).post("/files/replace").then().statusCode(200);
    assertThat(new String(HomeSandboxFixture.FILES.get(U).get("w.txt"), StandardCharsets.UTF_8)).isEqualTo("one\n2\n3\n");
  }

  @Test
  void aStarInAGlobCrossesDirectoriesAsFnmatchDoes() {
    HomeSandboxFixture.put(U, "pr/", new byte[0]);
    HomeSandboxFixture.put(U, "pr/d/", new byte[0]);
    HomeSandboxFixture.put(U, "pr/f.txt", "f");
    HomeSandboxFixture.put(U, "pr/d/x.txt", "x");
    HomeSandboxFixture.put(U, "pr/d/y.md", "y");
    Terminal.as(U).queryParam("pattern", "p*/*.txt").get("/files/glob").then().statusCode(200)
        .body("matches.path", containsInAnyOrder("pr/f.txt", "pr/d/x.txt"));
    Terminal.as(U).queryParam("pattern", "pr*txt").queryParam("type", "file").get("/files/glob").then().statusCode(200)
        .body("matches.path", containsInAnyOrder("pr/f.txt", "pr/d/x.txt"));
    // As upstream, an exclude drops what it matches by name or path, not a directory's contents.
    Terminal.as(U).queryParam("pattern", "*").queryParam("path", "pr").queryParam("exclude", "d").get("/files/glob").then()
        .statusCode(200).body("matches.path", containsInAnyOrder("f.txt", "d/x.txt", "d/y.md"));
  }

  @Test
  void killedProcessesLeaveTheListAsUpstreamForgetsThem() {
    String killed = Terminal.as(U).contentType("application/json").body(Map.of("command", "sleep 100")).post("/execute")
        .then().statusCode(200).extract().path("id");
    String done = Terminal.as(U).contentType("application/json").body(Map.of("command", "echo hi")).post("/execute")
        .then().statusCode(200).extract().path("id");
    Terminal.as(U).delete("/execute/" + killed).then().statusCode(200).body("status", equalTo("killed"));
    Terminal.as(U).get("/execute").then().statusCode(200).body("id", not(hasItem(killed))).body("id", hasItem(done));
  }

  @Test
  void odfDocumentsAreConvertedInTheSandboxAndAMissingOneIsNotFound() {
    HomeSandboxFixture.put(U, "notes.odt", new byte[] {'P', 'K', 3, 4, (byte) 0xff});
    HomeSandboxFixture.nextExec = new CommandResult(0, "Grüße\nzwei\n", "", false, 5, false);
    Terminal.as(U).queryParam("path", "notes.odt").queryParam("start_line", 2).get("/files/read").then().statusCode(200)
        .body("content", equalTo("zwei\n")).body("total_lines", equalTo(2));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.EXEC, RunCommand.class).get(0).env()).containsEntry("WORKCELL_DOC_KIND", "odt");
    HomeSandboxFixture.nextExec = new CommandResult(5, "", "File not found", false, 5, false);
    Terminal.as(U).queryParam("path", "gone.pdf").get("/files/read").then().statusCode(404);
    HomeSandboxFixture.nextExec = new CommandResult(0, "", "", false, 1, false);
  }

  @Test
  void archivesCarryUtf8NamesWithTheZipFlagAndAUtf8FileName() throws Exception {
    HomeSandboxFixture.put(U, "données/", new byte[0]);
    HomeSandboxFixture.put(U, "données/été 日本.txt", "x");
    byte[] zip = Terminal.as(U).contentType("application/json").body(Map.of("paths", List.of("données"))).post("/files/archive")
        .then().statusCode(200)
        .header("Content-Disposition", equalTo("attachment; filename=\"donn_es.zip\"; filename*=UTF-8''donn%C3%A9es.zip"))
        .extract().asByteArray();
    assertThat(names(zip)).containsExactly("données/été 日本.txt");
    int flags = (zip[6] & 0xff) | (zip[7] & 0xff) << 8; // the first local header's general purpose bits
    assertThat(flags & 0x800).as("UTF-8 flag (bit 11)").isNotZero();
  }

  private static List<String> names(byte[] zip) throws Exception {
    List<String> names = new ArrayList<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip), StandardCharsets.UTF_8)) {
      for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        names.add(entry.getName());
      }
    }
    return names;
  }
}
