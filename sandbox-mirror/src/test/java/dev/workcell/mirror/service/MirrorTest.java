package dev.workcell.mirror.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.mirror.client.Bucket;
import dev.workcell.mirror.config.MirrorOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The mirror against a real S3 server (s3proxy) and real folders laid out as sandbox-service lays
 * out its disks ({@code <root>/<instance>/<volume>/mnt/data}), changed the way a sandbox changes them.
 */
class MirrorTest {

  private static final String HOME = "workcell-home-" + "ab".repeat(32);
  private static final String HOME_PREFIX = "homes/" + "ab".repeat(32) + "/";
  private static final String TASK = "workcell-ws-task-1";
  private static final String TASK_PREFIX = "tasks/task-1/";

  @TempDir
  static Path serverDir;
  private static S3Server server;

  @TempDir
  Path work;
  private Path root;
  private final MutableClock clock = new MutableClock();
  private final List<Mirror> mirrors = new ArrayList<>();

  @BeforeAll
  static void server() throws IOException {
    server = new S3Server(serverDir);
  }

  @AfterAll
  static void stopServer() throws InterruptedException {
    server.close();
  }

  @BeforeEach
  void emptyBucket() {
    Bucket b = server.bucket();
    List<String> keys = new ArrayList<>();
    b.list("", o -> keys.add(o.key()));
    b.delete(keys);
    root = work.resolve("disks");
  }

  @AfterEach
  void stopMirrors() {
    mirrors.forEach(Mirror::close);
  }

  @Test
  void writesOverwritesNestedFoldersNonAsciiNamesAndA20MbFileReachTheBucket() throws Exception {
    Path home = volume(HOME);
    Path task = volume(TASK);
    Mirror mirror = start(server.bucket(), 64 << 20);
    write(home.resolve("notes.txt"), "first");
    write(task.resolve("src/main/deep/App.java"), "class App {}");
    write(home.resolve("répertoire/日本語 файл.txt"), "ünïcødé");
    byte[] big = new byte[20 << 20];
    new Random(7).nextBytes(big);
    Files.write(task.resolve("big.bin"), big);

    awaitObject(HOME_PREFIX + "notes.txt", "first");
    awaitObject(TASK_PREFIX + "src/main/deep/App.java", "class App {}");
    awaitObject(HOME_PREFIX + "répertoire/日本語 файл.txt", "ünïcødé");
    await(() -> exists(TASK_PREFIX + "big.bin"), "the 20 MB file");
    assertThat(server.bucket().get(TASK_PREFIX + "big.bin")).isEqualTo(big);

    // A copy made while the file was still being written carries the mtime listed before the last
    // write; the write's own event copies it again with the final one (a fresh-clone CI run met the first).
    String mtime = Long.toString(Files.getLastModifiedTime(task.resolve("big.bin")).toMillis());
    await(() -> mtime.equals(server.bucket().metadata(TASK_PREFIX + "big.bin").get("mtime")), "the final mtime");
    Map<String, String> meta = server.bucket().metadata(TASK_PREFIX + "big.bin");
    assertThat(meta.get("sha256")).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(big)));
    assertThat(meta.get("mode")).isEqualTo("0644");

    write(home.resolve("notes.txt"), "second, longer");
    awaitObject(HOME_PREFIX + "notes.txt", "second, longer");
    await(mirror::quiet, "the mirror to settle");
    assertThat(mirror.status().objects()).isEqualTo(4);
  }

  @Test
  void linksSpecialFilesAndPartFilesAreSkippedAndAFifoDoesNotHangTheMirror() throws Exception {
    Path home = volume(HOME);
    Mirror mirror = start(server.bucket(), 64 << 20);
    write(home.resolve("inside.txt"), "inside");
    Files.createSymbolicLink(home.resolve("passwd"), Path.of("/etc/passwd"));
    Files.createSymbolicLink(home.resolve("alias.txt"), home.resolve("inside.txt"));
    Files.createSymbolicLink(home.resolve("etc"), Path.of("/etc"));
    Process fifo = new ProcessBuilder("mkfifo", home.resolve("pipe").toString()).start();
    assertThat(fifo.waitFor()).isZero();
    write(home.resolve("after.txt"), "written after the fifo");
    write(home.resolve(".celld-part-0123456789abcdef"), "half a restore"); // celld's, not the user's

    awaitObject(HOME_PREFIX + "after.txt", "written after the fifo");
    await(mirror::quiet, "the mirror to settle");
    List<String> keys = keys(HOME_PREFIX);
    assertThat(keys).containsExactlyInAnyOrder(HOME_PREFIX + "inside.txt", HOME_PREFIX + "after.txt");
    assertThat(mirror.status().linksSkipped()).isGreaterThanOrEqualTo(3);
    assertThat(mirror.status().specialsSkipped()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void deletedAndMovedFilesGoUnderDeletedAndArePurgedAfterTheRetention() throws Exception {
    Path home = volume(HOME);
    Mirror mirror = start(server.bucket(), 64 << 20);
    write(home.resolve("gone.txt"), "keep me a week");
    write(home.resolve("old-name.txt"), "moved");
    write(home.resolve("dir/a.txt"), "in a folder");
    awaitObject(HOME_PREFIX + "dir/a.txt", "in a folder");
    awaitObject(HOME_PREFIX + "old-name.txt", "moved");
    awaitObject(HOME_PREFIX + "gone.txt", "keep me a week");

    Files.delete(home.resolve("gone.txt"));
    Files.move(home.resolve("old-name.txt"), home.resolve("new-name.txt"));
    Files.move(home.resolve("dir"), home.resolve("renamed"));
    String day = ".deleted/" + LocalDate.now(clock.withZone(ZoneOffset.UTC)) + "/";
    awaitObject(day + HOME_PREFIX + "gone.txt", "keep me a week");
    awaitObject(HOME_PREFIX + "new-name.txt", "moved");
    awaitObject(day + HOME_PREFIX + "old-name.txt", "moved");
    awaitObject(HOME_PREFIX + "renamed/a.txt", "in a folder");
    awaitObject(day + HOME_PREFIX + "dir/a.txt", "in a folder");
    await(mirror::quiet, "the mirror to settle");
    assertThat(keys(HOME_PREFIX)).containsExactlyInAnyOrder(HOME_PREFIX + "new-name.txt", HOME_PREFIX + "renamed/a.txt");

    clock.advance(Duration.ofDays(6));
    mirror.purgeNow();
    await(mirror::quiet, "the purge");
    assertThat(keys(".deleted/")).hasSize(3);

    clock.advance(Duration.ofDays(2));
    mirror.purgeNow();
    await(() -> keys(".deleted/").isEmpty(), "the purge after 8 days");
    assertThat(keys(HOME_PREFIX)).hasSize(2);
  }

  @Test
  void aRestartDoesNotUploadUnchangedFilesAgain() throws Exception {
    Path task = volume(TASK);
    for (int i = 0; i < 50; i++) {
      write(task.resolve("d" + (i % 5) + "/f" + i + ".txt"), "file " + i);
    }
    Bucket first = server.bucket();
    Mirror mirror = start(first, 64 << 20);
    await(() -> mirror.quiet() && mirror.status().objects() == 50, "the first sync");
    assertThat(first.puts()).isEqualTo(50);
    mirror.close();

    write(task.resolve("d0/f0.txt"), "changed while the mirror was down");
    Bucket second = server.bucket();
    Mirror again = start(second, 64 << 20);
    await(() -> again.quiet() && again.status().objects() == 50, "the sync after the restart");
    assertThat(second.puts()).as("PUTs after the restart").isEqualTo(1);
    assertThat(text(TASK_PREFIX + "d0/f0.txt")).isEqualTo("changed while the mirror was down");
  }

  @Test
  void aFirstSyncOf2000FilesPutsEachFileOnceAndNoPutFails() throws Exception {
    Path task = volume(TASK);
    for (int i = 0; i < 2000; i++) {
      write(task.resolve("d" + (i % 40) + "/f" + i + ".txt"), "file " + i + " " + "x".repeat(i % 700));
    }
    Bucket bucket = server.bucket();
    Mirror mirror = start(bucket, 64 << 20);
    await(() -> mirror.quiet() && mirror.status().objects() == 2000, "the first sync of 2,000 files", Duration.ofSeconds(240));
    assertThat(mirror.status().errors()).as("failed S3 calls; last: %s", mirror.status().lastError()).isZero();
    assertThat(bucket.puts()).isEqualTo(2000);
  }

  @Test
  void whileS3IsDownChangesWaitWithBackoffAndArriveWhenItIsBack() throws Exception {
    Path home = volume(HOME);
    Mirror mirror = start(server.bucket(), 64 << 20);
    write(home.resolve("before.txt"), "before");
    awaitObject(HOME_PREFIX + "before.txt", "before");

    server.stop();
    try {
      write(home.resolve("during/one.txt"), "one");
      write(home.resolve("two.txt"), "two");
      Files.delete(home.resolve("before.txt"));
      await(() -> mirror.status().errors() > 0 && mirror.status().lagSeconds() >= 1, "an error and a lag");
      assertThat(mirror.status().lastError()).isNotBlank();
    } finally {
      server.start();
    }
    awaitObject(HOME_PREFIX + "during/one.txt", "one");
    awaitObject(HOME_PREFIX + "two.txt", "two");
    await(() -> !exists(HOME_PREFIX + "before.txt"), "the delete");
    await(mirror::quiet, "the mirror to settle");
    assertThat(mirror.status().lagSeconds()).isZero();
  }

  @Test
  void aFileOverTheLimitIsSkippedAndReported() throws Exception {
    Path task = volume(TASK);
    Mirror mirror = start(server.bucket(), 1024);
    Files.write(task.resolve("huge.bin"), new byte[4096]);
    write(task.resolve("small.txt"), "small");
    awaitObject(TASK_PREFIX + "small.txt", "small");
    await(mirror::quiet, "the mirror to settle");
    assertThat(exists(TASK_PREFIX + "huge.bin")).isFalse();
    assertThat(mirror.status().recentSkips()).anySatisfy(s -> assertThat(s.key()).isEqualTo(TASK_PREFIX + "huge.bin"));
  }

  @Test
  void aRemovedVolumeMovesUnderDeleted() throws Exception {
    Path task = volume(TASK);
    Mirror mirror = start(server.bucket(), 64 << 20);
    write(task.resolve("result.txt"), "the result");
    awaitObject(TASK_PREFIX + "result.txt", "the result");
    deleteTree(root.resolve("default").resolve(TASK));
    String day = ".deleted/" + LocalDate.now(clock.withZone(ZoneOffset.UTC)) + "/";
    awaitObject(day + TASK_PREFIX + "result.txt", "the result");
    await(() -> keys(TASK_PREFIX).isEmpty(), "the task's prefix to empty");
    await(mirror::quiet, "the mirror to settle");
    assertThat(mirror.status().volumes()).isZero();
  }

  // ---- helpers

  private Path volume(String name) throws IOException {
    return Files.createDirectories(root.resolve("default").resolve(name).resolve("mnt/data"));
  }

  private Mirror start(Bucket bucket, long maxFileSize) throws IOException {
    MirrorOptions options = new MirrorOptions(root, "default", maxFileSize, Duration.ofDays(7), Duration.ofMillis(100),
        Duration.ofMillis(200), Duration.ZERO, Duration.ofHours(1), 10_000, Duration.ofSeconds(60), 4, Duration.ofSeconds(2));
    Mirror mirror = new Mirror(options, bucket, clock, work.resolve("spool"));
    mirrors.add(mirror);
    mirror.start();
    return mirror;
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static List<String> keys(String prefix) {
    List<String> keys = new ArrayList<>();
    server.bucket().list(prefix, o -> keys.add(o.key()));
    return keys;
  }

  private static boolean exists(String key) {
    return !keys(key).stream().filter(key::equals).toList().isEmpty();
  }

  private static String text(String key) {
    try {
      return new String(server.bucket().get(key), StandardCharsets.UTF_8);
    } catch (NoSuchKeyException e) {
      return null;
    }
  }

  private static void awaitObject(String key, String content) throws InterruptedException {
    await(() -> exists(key) && content.equals(text(key)), key + " = " + content);
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    await(condition, what, Duration.ofSeconds(30));
  }

  private static void await(BooleanSupplier condition, String what, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
      } catch (RuntimeException notYet) {
        // S3 not answering yet
      }
      Thread.sleep(50);
    }
    throw new AssertionError("timed out waiting for " + what);
  }
}
