package dev.workcell.mirror.service;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a tree the sandbox writes to without ever following a link. Every step is relative to an
 * open folder ({@code openat} with {@code O_NOFOLLOW}, Java's {@link SecureDirectoryStream}): a
 * folder swapped for a link to {@code /etc} between the listing and the read fails with ELOOP
 * instead of copying a host file into the bucket. The sandbox owns the tree; this process may be root.
 */
final class SafeTree {

  /** One entry of a folder, as {@code lstat} saw it. */
  record Entry(String name, Kind kind, long size, long mtimeMillis, int mode) {}

  enum Kind { FILE, FOLDER, LINK, SPECIAL }

  /** What a copy read: its size, both digests, and the file's mode and mtime at open. */
  record Copied(long size, byte[] sha256, byte[] md5) {}

  /** Thrown when a file grew past the limit while it was being read. */
  static final class TooLarge extends IOException {
    TooLarge(long limit) {
      super("larger than " + limit + " bytes");
    }
  }

  private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
  private final Path root;

  SafeTree(Path root) {
    this.root = root;
  }

  Path root() {
    return root;
  }

  /** The entries of folder {@code rel} ("" is the root); empty when it is gone or is no longer a folder. */
  Optional<List<Entry>> list(String rel) throws IOException {
    try (SecureDirectoryStream<Path> dir = open(rel)) {
      if (dir == null) {
        return Optional.empty();
      }
      List<Path> names = new ArrayList<>();
      dir.forEach(p -> names.add(p.getFileName()));
      List<Entry> entries = new ArrayList<>(names.size());
      for (Path name : names) {
        if (celldTemporary(name.toString())) {
          continue;
        }
        try {
          PosixFileAttributes a = dir.getFileAttributeView(name, PosixFileAttributeView.class, NOFOLLOW).readAttributes();
          Kind kind = a.isSymbolicLink() ? Kind.LINK : a.isDirectory() ? Kind.FOLDER : a.isRegularFile() ? Kind.FILE : Kind.SPECIAL;
          entries.add(new Entry(name.toString(), kind, a.size(), a.lastModifiedTime().toMillis(), mode(a.permissions())));
        } catch (java.nio.file.NoSuchFileException gone) {
          // removed between the listing and the lstat: the next event of this folder covers it
        }
      }
      return Optional.of(entries);
    } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException gone) {
      return Optional.empty();
    }
  }

  /**
   * celld's temporary files (a write's {@code .celld-tmp-…}, a restore's {@code .celld-part-…} until
   * its last part renames it): never copied, so a restore in progress is not mirrored, then moved
   * under {@code .deleted/}, as a file of the user's.
   */
  static boolean celldTemporary(String name) {
    return name.startsWith(".celld-part-") || name.startsWith(".celld-tmp-");
  }

  /**
   * Copies regular file {@code rel} to {@code out}, digesting it, refusing a link (O_NOFOLLOW), a
   * file that is no longer regular, and one that grows past {@code limit}.
   */
  Copied copy(String rel, OutputStream out, long limit) throws IOException {
    if (RegularFileOpener.available()) {
      // O_NONBLOCK|O_NOFOLLOW relative to the parent, then fstat of the descriptor: a FIFO swapped in
      // after the listing is refused at once instead of blocking this upload thread.
      try (SeekableByteChannel in = RegularFileOpener.open(root, rel)) {
        return copy(in, out, limit);
      }
    }
    int slash = rel.lastIndexOf('/');
    String parent = slash < 0 ? "" : rel.substring(0, slash);
    Path name = Path.of(rel.substring(slash + 1));
    try (SecureDirectoryStream<Path> dir = open(parent)) {
      if (dir == null) {
        throw new java.nio.file.NoSuchFileException(rel);
      }
      PosixFileAttributes a = dir.getFileAttributeView(name, PosixFileAttributeView.class, NOFOLLOW).readAttributes();
      if (!a.isRegularFile()) {
        throw new java.nio.file.NoSuchFileException(rel + " is no longer a regular file");
      }
      // Java 21: lstat, then open. A regular file swapped for a FIFO in between blocks this thread (decision 0021).
      try (SeekableByteChannel in = dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
        return copy(in, out, limit);
      }
    }
  }

  private static Copied copy(SeekableByteChannel in, OutputStream out, long limit) throws IOException {
    MessageDigest sha = digest("SHA-256");
    MessageDigest md5 = digest("MD5");
    long size = 0;
    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    int n;
    while ((n = in.read(buffer)) > 0) {
      size += n;
      if (size > limit) {
        throw new TooLarge(limit);
      }
      sha.update(buffer.array(), 0, n);
      md5.update(buffer.array(), 0, n);
      out.write(buffer.array(), 0, n);
      buffer.clear();
    }
    return new Copied(size, sha.digest(), md5.digest());
  }

  /** Opens folder {@code rel} one name at a time, each without following a link; null when absent. */
  private SecureDirectoryStream<Path> open(String rel) throws IOException {
    DirectoryStream<Path> top = Files.newDirectoryStream(root);
    if (!(top instanceof SecureDirectoryStream<Path> current)) {
      top.close();
      throw new IOException("this platform cannot open folders without following links");
    }
    if (rel.isEmpty()) {
      return current;
    }
    try {
      for (String segment : rel.split("/")) {
        SecureDirectoryStream<Path> next = current.newDirectoryStream(Path.of(segment), NOFOLLOW);
        current.close();
        current = next;
      }
      return current;
    } catch (java.nio.file.FileSystemException e) {
      current.close();
      if (e instanceof java.nio.file.AccessDeniedException) {
        throw e;
      }
      return null;
    }
  }

  static int mode(Set<PosixFilePermission> permissions) {
    int mode = 0;
    for (PosixFilePermission p : permissions) {
      mode |= 1 << (8 - p.ordinal());
    }
    return mode;
  }

  private static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
