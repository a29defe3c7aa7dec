package dev.workcell.sandbox.files.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.FileBytes;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.GlobFiles;
import dev.workcell.contracts.sandbox.GlobResult;
import dev.workcell.contracts.sandbox.GlobResult.GlobMatch;
import dev.workcell.contracts.sandbox.GrepFiles;
import dev.workcell.contracts.sandbox.GrepResult;
import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SearchFiles;
import dev.workcell.contracts.sandbox.SearchHit;
import dev.workcell.contracts.sandbox.SearchResult;
import dev.workcell.contracts.sandbox.WriteBytes;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.contracts.sandbox.WritePart;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Binary files, grep and glob end to end over NATS in a task sandbox. */
@QuarkusTest
class FileSearchAndBytesTest {

  @Inject
  SandboxClient sandboxes;

  SandboxRef ref;

  @BeforeEach
  void sandbox() {
    ref = sandboxes.shared();
  }

  @Test
  void everyByteValueSurvivesARoundTrip() {
    byte[] all = new byte[256 * 3];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    FileWritten written = sandboxes.call(SandboxSubjects.FILES_WRITE_BYTES, new WriteBytes(ref, "bin/all.bin", all, null, true));
    assertThat(written.size()).isEqualTo(all.length);
    FileBytes read = sandboxes.call(SandboxSubjects.FILES_READ_BYTES, new ReadBytes(ref, "bin/all.bin", null, null));
    assertThat(read.data()).isEqualTo(all);
    assertThat(read.eof()).isTrue();
    assertThat(read.size()).isEqualTo(all.length);
    assertThat(read.version()).isEqualTo(written.version());
    FileBytes chunk = sandboxes.call(SandboxSubjects.FILES_READ_BYTES, new ReadBytes(ref, "bin/all.bin", 250L, 10));
    assertThat(chunk.data()).isEqualTo(Arrays.copyOfRange(all, 250, 260));
    assertThat(chunk.eof()).isFalse();
    CommandResult sum = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "od -An -tx1 -v bin/all.bin | tr -d ' \\n' | head -c 12", 10));
    assertThat(sum.stdout()).isEqualTo("000102030405");
    assertThat(sandboxes.failure(SandboxSubjects.FILES_READ, new ReadFile(ref, "bin/all.bin")).code()).isEqualTo(ErrorCode.NOT_UTF8);
    assertThat(sandboxes.failure(SandboxSubjects.FILES_WRITE_BYTES,
        new WriteBytes(ref, "bin/all.bin", new byte[1], written.version() + "x", false)).code()).isEqualTo(ErrorCode.CONFLICT);
    assertThat(sandboxes.failure(SandboxSubjects.FILES_READ_BYTES, new ReadBytes(ref, "bin/all.bin", -1L, null)).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void aLargeBinaryFileWrittenInPartsAppearsWholeAtTheLastPart() {
    byte[] data = new byte[5 * 1_000_000 + 123];
    new java.util.Random(22).nextBytes(data);
    String upload = "00112233445566778899aabbccddeeff";
    int part = 1_000_000;
    for (int off = 0; off < data.length; off += part) {
      boolean last = off + part >= data.length;
      byte[] bytes = Arrays.copyOfRange(data, off, Math.min(off + part, data.length));
      FileWritten written = sandboxes.call(SandboxSubjects.FILES_WRITE_PART,
          new WritePart(ref, "restored/big.bin", upload, off, bytes, last, true, last ? 0600 : null));
      assertThat(written.size()).isEqualTo(off + bytes.length);
      if (!last) {
        assertThat(written.version()).isNull();
        assertThat(sandboxes.failure(SandboxSubjects.FILES_READ_BYTES, new ReadBytes(ref, "restored/big.bin", 0L, 1)).code())
            .as("no half-written file under its name").isEqualTo(ErrorCode.NOT_FOUND);
      }
    }
    CommandResult check = sandboxes.call(SandboxSubjects.EXEC,
        new RunCommand(ref, "sha256sum < restored/big.bin | cut -c1-64; stat -c %a restored/big.bin; ls -A restored", 10));
    assertThat(check.stdout()).isEqualTo(sha256(data) + "\n600\nbig.bin\n");
    assertThat(sandboxes.failure(SandboxSubjects.FILES_WRITE_PART,
        new WritePart(ref, "restored/big.bin", upload, 5, new byte[1], true, false, null)).code())
        .as("the part file is gone after the rename").isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(sandboxes.failure(SandboxSubjects.FILES_WRITE_PART,
        new WritePart(ref, "restored/x.bin", "../x", 0, new byte[1], true, false, null)).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  private static String sha256(byte[] data) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(data));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void grepFindsRegexAndLiteralMatchesAndSkipsBinaries() {
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "grep-test/a.py", "def main():\n    print('hi')\nmain()\n", null, true));
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "grep-test/b.txt", "main (not python)\n", null, true));
    sandboxes.call(SandboxSubjects.FILES_WRITE_BYTES, new WriteBytes(ref, "grep-test/c.py", "main()\0".getBytes(), null, true));

    GrepResult regex = sandboxes.call(SandboxSubjects.FILES_GREP,
        new GrepFiles(ref, "grep-test", "^(def )?main\\(", true, false, "*.py", true, null));
    assertThat(regex.matches()).extracting(SearchHit::path, SearchHit::line).containsExactly(
        org.assertj.core.groups.Tuple.tuple("grep-test/a.py", 1), org.assertj.core.groups.Tuple.tuple("grep-test/a.py", 3));
    GrepResult literal = sandboxes.call(SandboxSubjects.FILES_GREP,
        new GrepFiles(ref, "grep-test", "MAIN (", false, true, null, false, 10));
    assertThat(literal.matches()).singleElement().satisfies(hit -> assertThat(hit.path()).isEqualTo("grep-test/b.txt"));
    assertThat(sandboxes.failure(SandboxSubjects.FILES_GREP, new GrepFiles(ref, "", "(unclosed", true, false, null, true, null)).code())
        .isEqualTo(ErrorCode.INVALID_PATTERN);
    assertThat(sandboxes.failure(SandboxSubjects.FILES_GREP, new GrepFiles(ref, "../", "x", false, false, null, true, null)).code())
        .isEqualTo(ErrorCode.INVALID_PATH);
    assertThat(sandboxes.failure(SandboxSubjects.FILES_GREP, new GrepFiles(ref, "", "x", false, false, null, true, 1001)).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void globMatchesAcrossDirectoriesWithoutFollowingLinks() {
    CommandResult setup = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref,
        "rm -rf glob-test && mkdir -p glob-test/src/deep glob-test/out && touch glob-test/src/a.js glob-test/src/deep/b.js "
            + "glob-test/out/c.js glob-test/readme.md && ln -s /etc glob-test/src/etc-link", 10));
    assertThat(setup.exitCode()).isZero();
    GlobResult js = sandboxes.call(SandboxSubjects.FILES_GLOB, new GlobFiles(ref, "glob-test", "**/*.js", "out/**", "file", null));
    assertThat(js.matches()).extracting(GlobMatch::path).containsExactly("glob-test/src/a.js", "glob-test/src/deep/b.js");
    assertThat(js.truncated()).isFalse();
    GlobResult dirs = sandboxes.call(SandboxSubjects.FILES_GLOB, new GlobFiles(ref, "glob-test", "*", null, "directory", null));
    assertThat(dirs.matches()).extracting(GlobMatch::path).containsExactly("glob-test/out", "glob-test/src");
    GlobResult all = sandboxes.call(SandboxSubjects.FILES_GLOB, new GlobFiles(ref, "glob-test", "**/passwd", null, null, null));
    assertThat(all.matches()).as("links are never followed").isEmpty();
    assertThat(sandboxes.failure(SandboxSubjects.FILES_GLOB, new GlobFiles(ref, "", "[z", null, null, null)).code())
        .isEqualTo(ErrorCode.INVALID_PATTERN);
    assertThat(sandboxes.failure(SandboxSubjects.FILES_GLOB, new GlobFiles(ref, "glob-test/src/etc-link", "*", null, null, null)).code())
        .isEqualTo(ErrorCode.PATH_ESCAPE);
  }

  @Test
  void searchRepliesCarryAtMostTheOutputLimit() {
    // 1,000 lines of 500 characters and 1,000 long file names: far more than WORK_MAX_OUTPUT_CHARS (50,000).
    CommandResult setup = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref,
        "rm -rf cap-test && mkdir -p cap-test/names && for i in $(seq 1 1000); do printf 'match %0494d\\n' $i; done > cap-test/long.txt"
            + " && for i in $(seq 1 1000); do : > cap-test/names/a-rather-long-file-name-that-fills-the-output-cap-$i.txt; done", 60));
    assertThat(setup.exitCode()).as(setup.stderr()).isZero();

    GrepResult grep = sandboxes.call(SandboxSubjects.FILES_GREP,
        new GrepFiles(ref, "cap-test", "match", false, false, null, true, 1_000));
    assertThat(grep.truncated()).isTrue();
    assertThat(grep.matches()).hasSizeBetween(90, 100);
    assertThat(grep.matches().stream().mapToInt(hit -> hit.path().length() + hit.text().length()).sum()).isLessThanOrEqualTo(50_000);
    assertThat(grep.matches().get(0).line()).isEqualTo(1);

    SearchResult search = sandboxes.call(SandboxSubjects.FILES_SEARCH, new SearchFiles(ref, "cap-test", "match", null));
    assertThat(search.truncated()).isTrue();
    assertThat(search.hits().stream().mapToInt(hit -> hit.path().length() + hit.text().length()).sum()).isLessThanOrEqualTo(50_000);

    GlobResult glob = sandboxes.call(SandboxSubjects.FILES_GLOB, new GlobFiles(ref, "cap-test/names", "*.txt", null, null, 1_000));
    assertThat(glob.truncated()).isTrue();
    assertThat(glob.matches()).hasSizeLessThan(1_000);
    assertThat(glob.matches().stream().mapToInt(match -> match.path().length()).sum()).isLessThanOrEqualTo(50_000);
  }

  @Test
  void anOpenTerminalHomeIsNotCutByTheWorkOutputCap() {
    SandboxRef home = sandboxes.newHome("search-cap");
    try {
      CommandResult setup = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(home,
          "mkdir -p names && for i in $(seq 1 1000); do : > names/a-rather-long-file-name-that-fills-the-output-cap-$i.txt; done", 60));
      assertThat(setup.exitCode()).as(setup.stderr()).isZero();
      // An Open Terminal directory archive lists up to 1,000 files this way (about 66,000 characters here).
      GlobResult glob = sandboxes.call(SandboxSubjects.FILES_GLOB, new GlobFiles(home, "names", "*.txt", null, "file", 1_000));
      assertThat(glob.matches()).hasSize(1_000);
      assertThat(glob.truncated()).isFalse();
    } finally {
      sandboxes.call(SandboxSubjects.STOP, home);
    }
  }
}
