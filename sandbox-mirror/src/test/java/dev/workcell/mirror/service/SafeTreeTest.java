package dev.workcell.mirror.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tree the sandbox controls is never left through a link, whichever path component is the link. */
class SafeTreeTest {

  @TempDir
  Path data;

  @Test
  void aFolderSwappedForALinkToEtcIsNeitherListedNorRead() throws IOException {
    Files.createSymbolicLink(data.resolve("etc"), Path.of("/etc"));
    SafeTree tree = new SafeTree(data);

    assertThat(tree.list("etc")).isEmpty();
    assertThatThrownBy(() -> tree.copy("etc/passwd", new ByteArrayOutputStream(), 1 << 20))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void aLinkAsTheLastComponentIsNotRead() throws IOException {
    Files.createSymbolicLink(data.resolve("passwd"), Path.of("/etc/passwd"));
    SafeTree tree = new SafeTree(data);

    assertThat(tree.list("").orElseThrow()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo(SafeTree.Kind.LINK));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThatThrownBy(() -> tree.copy("passwd", out, 1 << 20)).isInstanceOf(NoSuchFileException.class);
    assertThat(out.size()).isZero();
  }

  @Test
  void aRegularFileIsCopiedWithItsDigests() throws IOException {
    Files.createDirectories(data.resolve("a/b"));
    Files.writeString(data.resolve("a/b/c.txt"), "abc");
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    SafeTree.Copied copied = new SafeTree(data).copy("a/b/c.txt", out, 1 << 20);

    assertThat(out.toString()).isEqualTo("abc");
    assertThat(copied.size()).isEqualTo(3);
    assertThat(dev.workcell.mirror.client.Bucket.hex(copied.md5())).isEqualTo("900150983cd24fb0d6963f7d28e17f72");
  }

  @Test
  void aFifoOpenedWhereAFileWasIsRefusedAtOnceNotWaitedOn() throws Exception {
    // The race of decision 0021: the listing saw a regular file, the open meets a FIFO. A plain open
    // would wait for a writer forever; O_NONBLOCK plus a check of the descriptor refuses it.
    assertThat(RegularFileOpener.available()).as("the foreign-function API on Java %s", Runtime.version())
        .isEqualTo(Runtime.version().feature() >= 22);
    org.junit.jupiter.api.Assumptions.assumeTrue(RegularFileOpener.available());
    Files.createDirectories(data.resolve("d"));
    assertThat(new ProcessBuilder("mkfifo", data.resolve("d/pipe").toString()).start().waitFor()).isZero();
    Files.writeString(data.resolve("d/file.txt"), "content");

    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      assertThatThrownBy(() -> RegularFileOpener.open(data, "d/pipe")).isInstanceOf(NoSuchFileException.class);
      try (var in = RegularFileOpener.open(data, "d/file.txt")) {
        assertThat(in.size()).isEqualTo(7);
      }
    });
  }
}
