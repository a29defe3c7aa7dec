package dev.workcell.sandbox.files.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.DeleteFile;
import dev.workcell.contracts.sandbox.FileChanged;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.FileEntry;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.MakeDirectory;
import dev.workcell.contracts.sandbox.MoveFile;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SearchFiles;
import dev.workcell.contracts.sandbox.SearchResult;
import dev.workcell.contracts.sandbox.StatFile;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.BulkMessage;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The file API end to end over NATS, and an escape corpus that must all be refused. */
@QuarkusTest
class WorkspaceFilesTest {

  private static final Set<ErrorCode> REFUSALS = Set.of(ErrorCode.INVALID_PATH, ErrorCode.PATH_ESCAPE,
      ErrorCode.NOT_REGULAR_FILE, ErrorCode.NOT_FOUND, ErrorCode.NOT_A_DIRECTORY);

  @Inject
  SandboxClient sandboxes;

  @Inject
  NatsRequester requester;

  SandboxRef ref;

  @BeforeEach
  void sandbox() {
    ref = sandboxes.shared();
  }

  @Test
  void writeReadListStatMoveSearchDelete() {
    FileWritten written = sandboxes.call(SandboxSubjects.FILES_WRITE,
        new WriteFile(ref, "files-test/src/hello.txt", "hello\nworld\n", null, true));
    assertThat(written.size()).isEqualTo(12);

    FileContent read = sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "files-test/src/hello.txt"));
    assertThat(read.content()).isEqualTo("hello\nworld\n");
    assertThat(read.version()).isEqualTo(written.version());

    FileList list = sandboxes.call(SandboxSubjects.FILES_LIST, new ListFiles(ref, "files-test/src"));
    assertThat(list.entries()).extracting(FileEntry::name).containsExactly("hello.txt");
    FileEntry stat = sandboxes.call(SandboxSubjects.FILES_STAT, new StatFile(ref, "files-test/src/hello.txt"));
    assertThat(stat.type()).isEqualTo("file");
    assertThat(stat.version()).isEqualTo(written.version());

    FileChanged dir = sandboxes.call(SandboxSubjects.FILES_MKDIR, new MakeDirectory(ref, "files-test/out", false));
    assertThat(dir.changed()).isTrue();
    sandboxes.call(SandboxSubjects.FILES_MOVE, new MoveFile(ref, "files-test/src/hello.txt", "files-test/out/hello.txt"));
    SearchResult found = sandboxes.call(SandboxSubjects.FILES_SEARCH, new SearchFiles(ref, "files-test", "WORLD", null));
    assertThat(found.hits()).singleElement().satisfies(hit -> {
      assertThat(hit.path()).isEqualTo("files-test/out/hello.txt");
      assertThat(hit.line()).isEqualTo(2);
    });

    assertThat(sandboxes.failure(SandboxSubjects.FILES_DELETE, new DeleteFile(ref, "files-test", false)).code())
        .isEqualTo(ErrorCode.DIRECTORY_NOT_EMPTY);
    sandboxes.call(SandboxSubjects.FILES_DELETE, new DeleteFile(ref, "files-test", true));
    assertThat(sandboxes.failure(SandboxSubjects.FILES_READ, new ReadFile(ref, "files-test/out/hello.txt")).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
  }

  @Test
  void aTwoMegabyteTextComesBackByteForByte() {
    // Quotes, newlines and multi-byte characters: what JSON escapes, and what the raw frames carry as they are.
    String text = "line \"å\" ✓\n".repeat(142_857); // 1,999,998 bytes of UTF-8
    FileWritten written = sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "files-big/text.txt", text, null, true));
    assertThat(written.size()).isEqualTo(1_999_998);

    FileContent read = sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "files-big/text.txt"));
    assertThat(read.content()).isEqualTo(text);
    assertThat(read.size()).isEqualTo(1_999_998);
    sandboxes.call(SandboxSubjects.FILES_DELETE, new DeleteFile(ref, "files-big", true));
  }

  /**
   * A text write as the gateway sends it (UTF-8 bytes after the JSON) reaches celld as those bytes:
   * 2,000,000 control characters, six times that once JSON-escaped, arrive byte for byte; bytes that
   * are not UTF-8 are refused by celld with not_utf8 and nothing is written (issue 23).
   */
  @Test
  void aTextWriteGoesToCelldAsItsBytesAndMustBeUtf8() {
    byte[] controls = new byte[2_000_000];
    Arrays.fill(controls, (byte) 0x01);
    FileWritten written = requester.request(SandboxSubjects.FILES_WRITE,
        new BulkMessage<>(new WriteFile(ref, "files-raw/controls.txt", null, null, true), controls), SandboxClient.RUNNER,
        Duration.ofSeconds(60)).await().atMost(Duration.ofSeconds(65));
    assertThat(written.size()).isEqualTo(2_000_000);
    assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "files-raw/controls.txt")).content())
        .isEqualTo("\u0001".repeat(2_000_000));

    byte[] invalid = "caf\u00e9 ".getBytes(StandardCharsets.UTF_8);
    invalid[3] = (byte) 0xe9; // Latin-1 é: not UTF-8
    WorkcellException refused = assertThrows(WorkcellException.class, () -> requester.request(
        SandboxSubjects.FILES_WRITE, new BulkMessage<>(new WriteFile(ref, "files-raw/latin1.txt", null, null, true), invalid),
        SandboxClient.RUNNER, Duration.ofSeconds(30)).await().atMost(Duration.ofSeconds(35)));
    assertThat(refused.code()).isEqualTo(ErrorCode.NOT_UTF8);
    assertThat(refused.getMessage()).contains("not valid UTF-8");
    assertThat(sandboxes.failure(SandboxSubjects.FILES_STAT, new StatFile(ref, "files-raw/latin1.txt")).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    sandboxes.call(SandboxSubjects.FILES_DELETE, new DeleteFile(ref, "files-raw", true));
  }

  @Test
  void anEmptyDirectoryIsNotDeletedWithoutRecursive() {
    sandboxes.call(SandboxSubjects.FILES_MKDIR, new MakeDirectory(ref, "empty-dir-test/empty", true));
    assertThat(sandboxes.failure(SandboxSubjects.FILES_DELETE, new DeleteFile(ref, "empty-dir-test/empty", false)).code())
        .isEqualTo(ErrorCode.DIRECTORY_NOT_EMPTY);
    assertThat(sandboxes.call(SandboxSubjects.FILES_STAT, new StatFile(ref, "empty-dir-test/empty")).type())
        .isEqualTo("dir");
    assertThat(sandboxes.call(SandboxSubjects.FILES_DELETE, new DeleteFile(ref, "empty-dir-test", true)).changed())
        .isTrue();
  }

  @Test
  void aStaleExpectedVersionIsAConflict() {
    FileWritten first = sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "conflict.txt", "one", null, false));
    FileWritten second = sandboxes.call(SandboxSubjects.FILES_WRITE,
        new WriteFile(ref, "conflict.txt", "two", first.version(), false));
    assertThat(second.version()).isNotEqualTo(first.version());

    var conflict = sandboxes.failure(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "conflict.txt", "three", first.version(), false));
    assertThat(conflict.code()).isEqualTo(ErrorCode.CONFLICT);
    assertThat(conflict.code().httpStatus()).isEqualTo(409);
    assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "conflict.txt")).content()).isEqualTo("two");
  }

  @Test
  void anotherUsersTaskIsNotFound() {
    var error = sandboxes.failure(SandboxSubjects.FILES_READ, new ReadFile(ref, "conflict.txt"), new Actor("mallory", Actor.Role.USER));
    assertThat(error.code()).isEqualTo(ErrorCode.NOT_FOUND);
    var owner = new Actor(ref.ownerId(), Actor.Role.USER);
    sandboxes.call(SandboxSubjects.FILES_LIST, new ListFiles(ref, ""), owner);
  }

  @Test
  void aWrongOwnerForAnExistingSandboxIsAnOwnershipConflict() {
    var error = sandboxes.failure(SandboxSubjects.FILES_LIST, new ListFiles(new SandboxRef(ref.taskId(), "someone-else"), ""));
    assertThat(error.code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT);
  }

  @Test
  void theEscapeCorpusIsRefused() {
    CommandResult setup = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, String.join(" && ",
        "mkdir -p escape/inside",
        "ln -sfn /etc/passwd escape/passwd-link",
        "ln -sfn /proc/self/root escape/proc-root",
        "ln -sfn /etc escape/etc-dir",
        "ln -sfn inside escape/inside-link",
        "ln -sfn .. escape/up",
        "ln -sfn ../../../../etc/passwd escape/relative-out",
        "ln -sfn /nonexistent/target escape/dangling",
        "ln -sfn missing-file escape/dangling-relative",
        "rm -f escape/fifo && mkfifo escape/fifo"), 30));
    assertThat(setup.exitCode()).as(setup.stderr()).isZero();

    List<ReadFile> reads = List.of(
        new ReadFile(ref, "escape/passwd-link"),
        new ReadFile(ref, "escape/proc-root/etc/passwd"),
        new ReadFile(ref, "/proc/self/root/etc/passwd"),
        new ReadFile(ref, "escape/etc-dir/passwd"),
        new ReadFile(ref, "escape/up/etc/passwd"),
        new ReadFile(ref, "escape/relative-out"),
        new ReadFile(ref, "../etc/passwd"),
        new ReadFile(ref, "escape/../../etc/passwd"),
        new ReadFile(ref, "/etc/passwd"),
        new ReadFile(ref, "escape\\..\\..\\etc\\passwd"),
        new ReadFile(ref, "escape/passwd\0.txt"),
        new ReadFile(ref, "a/".repeat(600) + "x"),
        new ReadFile(ref, "escape/dangling"),
        new ReadFile(ref, "escape/dangling-relative"),
        new ReadFile(ref, "escape/fifo"));
    for (ReadFile request : reads) {
      var error = sandboxes.failure(SandboxSubjects.FILES_READ, request);
      assertThat(error.code()).as("read %s", request).isIn(REFUSALS);
    }

    List<WriteFile> writes = List.of(
        new WriteFile(ref, "escape/passwd-link", "owned", null, false),
        new WriteFile(ref, "escape/etc-dir/evil", "owned", null, false),
        new WriteFile(ref, "escape/inside-link/through-link", "owned", null, false),
        new WriteFile(ref, "escape/proc-root/tmp/evil", "owned", null, false),
        new WriteFile(ref, "escape/up/evil", "owned", null, false),
        new WriteFile(ref, "escape/dangling", "owned", null, false),
        new WriteFile(ref, "escape/dangling-relative", "owned", null, false),
        new WriteFile(ref, "escape/fifo", "owned", null, false),
        new WriteFile(ref, "/tmp/evil", "owned", null, false),
        new WriteFile(ref, "../evil", "owned", null, false));
    for (WriteFile request : writes) {
      var error = sandboxes.failure(SandboxSubjects.FILES_WRITE, request);
      assertThat(error.code()).as("write %s", request).isIn(REFUSALS);
    }

    var listThroughLink = sandboxes.failure(SandboxSubjects.FILES_LIST, new ListFiles(ref, "escape/etc-dir"));
    assertThat(listThroughLink.code()).isEqualTo(ErrorCode.PATH_ESCAPE);
    var moveOut = sandboxes.failure(SandboxSubjects.FILES_MOVE, new MoveFile(ref, "escape/inside", "escape/etc-dir/moved"));
    assertThat(moveOut.code()).isIn(REFUSALS);
    // Deleting a link removes the link itself, never its target.
    sandboxes.call(SandboxSubjects.FILES_DELETE, new DeleteFile(ref, "escape/passwd-link", false));
    CommandResult passwd = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "test -s /etc/passwd && echo intact", 10));
    assertThat(passwd.stdout()).contains("intact");
    CommandResult nothingWritten = sandboxes.call(SandboxSubjects.EXEC,
        new RunCommand(ref, "ls /tmp/evil /etc/evil 2>/dev/null | wc -l", 10));
    assertThat(nothingWritten.stdout().strip()).isEqualTo("0");
  }
}
