package dev.workcell.gateway.openterminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.GlobFiles;
import dev.workcell.contracts.sandbox.GrepFiles;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.contracts.sandbox.WritePart;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The file tools and the file browser's endpoints, shaped as Open Terminal answers. */
@QuarkusTest
class TerminalFileTest {

  static final String U = "file-user";

  @BeforeEach
  void reset() {
    HomeSandboxFixture.reset();
  }

  @Test
  void writeThenReadWithALineRange() {
    Terminal.as(U).contentType("application/json").body(Map.of("path", "notes/a.txt", "content", "one\ntwo\r\nthree\nfour"))
        .when().post("/files/write").then().statusCode(200).body("path", equalTo("/home/user/notes/a.txt")).body("size", equalTo(19));
    WriteFile write = HomeSandboxFixture.seen(SandboxSubjects.FILES_WRITE, WriteFile.class).get(0);
    assertThat(write.createParents()).isTrue();
    Terminal.as(U).queryParam("path", "notes/a.txt").queryParam("start_line", 2).queryParam("end_line", 3)
        .when().get("/files/read").then().statusCode(200).body("total_lines", equalTo(4)).body("content", equalTo("two\nthree\n")); // universal newlines, as upstream
  }

  @Test
  void replaceNeedsOneMatchUnlessAllowedAndWritesOnlyWhatItRead() {
    HomeSandboxFixture.put(U, "r.txt", "a x\nb x\nc x\n");
    Terminal.as(U).contentType("application/json").body(Map.of("path", "r.txt", "replacements", List.of(Map.of("target", "x", "replacement", "y"))))
        .post("/files/replace").then().statusCode(400).body("code", equalTo("invalid_argument"))
        .body("detail", equalTo("Found 3 occurrences of target string but allow_multiple is false"));
    Terminal.as(U).contentType("application/json").body(Map.of("path", "r.txt", "replacements",
            List.of(Map.of("target", "x", "replacement", "y", "start_line", 2, "end_line", 2),
                Map.of("target", "c x", "replacement", "C"))))
        .post("/files/replace").then().statusCode(200).body("path", equalTo("/home/user/r.txt"));
    assertThat(new String(HomeSandboxFixture.FILES.get(U).get("r.txt"), StandardCharsets.UTF_8)).isEqualTo("a x\nb y\nC\n");
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.FILES_WRITE, WriteFile.class).get(0).expectedVersion()).isNotNull();
    Terminal.as(U).contentType("application/json").body(Map.of("path", "r.txt", "replacements", List.of(Map.of("target", "zzz", "replacement", "y"))))
        .post("/files/replace").then().statusCode(400).body("detail", equalTo("Target string not found: 'zzz'"));
  }

  @Test
  void imagesComeBackAsRawBytesWithTheirTypeAndOtherBinaryIs415() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, (byte) 0xff};
    HomeSandboxFixture.put(U, "pic.png", png);
    byte[] body = Terminal.as(U).queryParam("path", "pic.png").get("/files/read").then().statusCode(200)
        .contentType("image/png").extract().asByteArray();
    assertThat(body).isEqualTo(png);
    HomeSandboxFixture.put(U, "blob.bin", new byte[] {0, (byte) 0xff, (byte) 0xfe});
    Terminal.as(U).queryParam("path", "blob.bin").get("/files/read").then().statusCode(415)
        .contentType("application/problem+json").body("detail", equalTo("Unsupported binary file type: application/octet-stream"));
  }

  @Test
  void documentsAreConvertedInsideTheSandboxWithThePathInTheEnvironment() {
    HomeSandboxFixture.put(U, "d'; rm -rf ~ #.docx", new byte[] {'P', 'K'});
    HomeSandboxFixture.nextExec = new CommandResult(0, "Title\nBody\n", "", false, 5, false);
    Terminal.as(U).queryParam("path", "d'; rm -rf ~ #.docx").get("/files/read").then().statusCode(200)
        .body("content", equalTo("Title\nBody\n")).body("total_lines", equalTo(2));
    RunCommand exec = HomeSandboxFixture.seen(SandboxSubjects.EXEC, RunCommand.class).get(0);
    assertThat(exec.command()).doesNotContain("rm -rf").doesNotContain("docx");
    assertThat(exec.env()).containsEntry("WORKCELL_DOC_PATH", "d'; rm -rf ~ #.docx").containsEntry("WORKCELL_DOC_KIND", "docx");
    HomeSandboxFixture.nextExec = new CommandResult(3, "", "no PDF text extractor", false, 5, false);
    Terminal.as(U).queryParam("path", "x.pdf").get("/files/read").then().statusCode(415).body("code", equalTo("unsupported_media_type"));
    HomeSandboxFixture.nextExec = new CommandResult(0, "", "", false, 1, false);
  }

  @Test
  void listDisplayGrepAndGlob() {
    HomeSandboxFixture.put(U, "src/", new byte[0]);
    HomeSandboxFixture.put(U, "src/main.py", "import os\nprint('hi')\n");
    HomeSandboxFixture.put(U, "src/util.py", "def f():\n  print('x')\n");
    Terminal.as(U).queryParam("directory", "src").get("/files/list").then().statusCode(200).body("dir", equalTo("/home/user/src"))
        .body("entries", hasSize(2)).body("entries.find { it.name == 'main.py' }.type", equalTo("file"));
    Terminal.as(U).queryParam("path", "src/main.py").get("/files/display").then().statusCode(200).body("exists", equalTo(true));
    Terminal.as(U).queryParam("path", "nope").get("/files/display").then().statusCode(200).body("exists", equalTo(false));
    Terminal.as(U).queryParam("query", "print").queryParam("path", "src").queryParam("include", "*.py", "*.txt")
        .get("/files/grep").then().statusCode(200).body("matches", hasSize(2)).body("path", equalTo("/home/user/src"))
        .body("matches.file", org.hamcrest.Matchers.hasItem("/home/user/src/main.py"));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.FILES_GREP, GrepFiles.class)).extracting(GrepFiles::include)
        .containsExactly("*.py", "*.txt");
    Terminal.as(U).queryParam("query", "import").get("/files/grep").then().statusCode(200).body("path", equalTo("/home/user"))
        .body("matches", hasSize(1)).body("matches[0].file", equalTo("/home/user/src/main.py")).body("matches[0].line", equalTo(1));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.FILES_GREP, GrepFiles.class).get(2).include()).isNull();
    Terminal.as(U).queryParam("pattern", "*.py").queryParam("path", "/home/user/src").queryParam("exclude", "nothing", "util.py")
        .get("/files/glob").then().statusCode(200).body("matches", hasSize(1)).body("matches[0].path", equalTo("main.py"))
        .body("matches[0].type", equalTo("file"));
    GlobFiles glob = HomeSandboxFixture.seen(SandboxSubjects.FILES_GLOB, GlobFiles.class).get(0);
    assertThat(glob.pattern()).isEqualTo("**/*.py");
    assertThat(glob.exclude()).isNull(); // excludes are applied by the gateway, by name or path as upstream
    assertThat(glob.path()).isEqualTo("src");
  }

  @Test
  void aFileUploadedInPartsAppearsAtTheLastPartWithItsMode() {
    byte[] first = new byte[2_000_000];
    first[0] = (byte) 0xff;
    String upload = "0123456789abcdef0123456789abcdef";
    Terminal.as(U).contentType("application/octet-stream").body(first).queryParam("path", "/home/user/r/big.bin")
        .queryParam("upload", upload).queryParam("offset", 0).queryParam("last", false)
        .post("/files/upload/part").then().statusCode(200).body("size", equalTo(2_000_000));
    assertThat(HomeSandboxFixture.FILES.get(U)).doesNotContainKey("r/big.bin");
    Terminal.as(U).contentType("application/octet-stream").body(new byte[] {0, 1}).queryParam("path", "r/big.bin")
        .queryParam("upload", upload).queryParam("offset", 2_000_000).queryParam("last", true).queryParam("mode", "0750")
        .post("/files/upload/part").then().statusCode(200).body("path", equalTo("/home/user/r/big.bin")).body("size", equalTo(2_000_002));
    assertThat(HomeSandboxFixture.FILES.get(U).get("r/big.bin")).hasSize(2_000_002).startsWith((byte) 0xff).endsWith((byte) 0, (byte) 1);
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.FILES_WRITE_PART, WritePart.class).get(1).mode()).isEqualTo(0750);

    Terminal.as(U).contentType("application/octet-stream").body(new byte[1]).queryParam("path", "x.bin").queryParam("upload", "../etc")
        .queryParam("offset", 0).post("/files/upload/part").then().statusCode(400).body("code", equalTo("invalid_request"));
    Terminal.as(U).contentType("application/octet-stream").body(new byte[1]).queryParam("path", "x.bin").queryParam("upload", upload)
        .queryParam("offset", "-1").post("/files/upload/part").then().statusCode(400).body("code", equalTo("invalid_request"));
    Terminal.as(U).contentType("application/octet-stream").body(new byte[1]).queryParam("path", "x.bin").queryParam("upload", upload)
        .queryParam("offset", 0).queryParam("mode", "999").post("/files/upload/part").then().statusCode(400);
    Terminal.as(U).contentType("application/octet-stream").body(new byte[2_000_001]).queryParam("path", "x.bin")
        .queryParam("upload", upload).queryParam("offset", 0).post("/files/upload/part").then().statusCode(413);
  }

  @Test
  void viewServeUploadMkdirMoveDeleteAndArchive() throws Exception {
    byte[] big = new byte[2_500_000];
    big[2_400_000] = 7;
    HomeSandboxFixture.put(U, "big.bin", big);
    byte[] viewed = Terminal.as(U).queryParam("path", "big.bin").get("/files/view").then().statusCode(200).extract().asByteArray();
    assertThat(viewed).isEqualTo(big);
    HomeSandboxFixture.put(U, "site/", new byte[0]);
    HomeSandboxFixture.put(U, "site/index.html", "<p>hi</p>");
    Terminal.as(U).get("/files/serve/home/user/site/index.html").then().statusCode(200).contentType("text/html")
        .body(equalTo("<p>hi</p>"));
    Terminal.as(U).multiPart("file", "up.txt", "uploaded".getBytes(StandardCharsets.UTF_8)).queryParam("directory", "/home/user/in")
        .post("/files/upload").then().statusCode(200).body("path", equalTo("/home/user/in/up.txt")).body("size", equalTo(8));
    assertThat(HomeSandboxFixture.FILES.get(U).get("in/up.txt")).isEqualTo("uploaded".getBytes(StandardCharsets.UTF_8));
    Terminal.as(U).multiPart("file", "huge.bin", new byte[2_000_001]).queryParam("directory", "in")
        .post("/files/upload").then().statusCode(413);
    Terminal.as(U).contentType("application/json").body(Map.of("path", "made/deep")).post("/files/mkdir").then().statusCode(200)
        .body("path", equalTo("/home/user/made/deep"));
    Terminal.as(U).contentType("application/json").body(Map.of("source", "in/up.txt", "destination", "/home/user/moved.txt"))
        .post("/files/move").then().statusCode(200).body("destination", equalTo("/home/user/moved.txt"));
    byte[] zip = Terminal.as(U).contentType("application/json").body(Map.of("paths", List.of("site", "moved.txt")))
        .post("/files/archive").then().statusCode(200).contentType("application/zip").extract().asByteArray();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
      ZipEntry first = in.getNextEntry();
      assertThat(first.getName()).isEqualTo("site/index.html");
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("<p>hi</p>");
      assertThat(in.getNextEntry().getName()).isEqualTo("moved.txt");
    }
    Terminal.as(U).queryParam("path", "moved.txt").delete("/files/delete").then().statusCode(200).body("type", equalTo("file"));
    Terminal.as(U).queryParam("path", "moved.txt").delete("/files/delete").then().statusCode(404);
  }
}
