package dev.workcell.mirror.service;

import dev.workcell.mirror.client.Bucket;
import dev.workcell.mirror.client.StoredObject;
import dev.workcell.mirror.config.MirrorOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Brings the bucket in line with one folder of a volume: new and changed files are copied (through
 * a spool file, so the object is one consistent read), files and folders that are gone move under
 * {@code .deleted/<date>/}, links and special files are skipped. A failure leaves the index as it
 * was for what did not succeed, so the retry of the same folder redoes exactly that.
 */
final class FolderSync {

  /** Where a folder's watch goes; false when no more watches may be taken. */
  interface Watches {
    boolean watch(Volume volume, String folder);

    void unwatch(Volume volume, String folder);
  }

  private final Bucket bucket;
  private final MirrorOptions options;
  private final Clock clock;
  private final ExecutorService uploads;
  private final Path spool;
  private final MirrorReport report;
  private final Watches watches;

  FolderSync(Bucket bucket, MirrorOptions options, Clock clock, ExecutorService uploads, Path spool, MirrorReport report,
      Watches watches) {
    this.bucket = bucket;
    this.options = options;
    this.clock = clock;
    this.uploads = uploads;
    this.spool = spool;
    this.report = report;
    this.watches = watches;
  }

  /**
   * The first sync of a volume (also after a restart): what the bucket already holds with the same
   * size and MD5 is not uploaded again; what it holds that the volume no longer has moves to
   * {@code .deleted/}.
   */
  void initial(Volume volume) throws IOException {
    Map<String, StoredObject> stored = new HashMap<>();
    bucket.list(volume.prefix, o -> stored.put(o.key(), o));
    sync(volume, "", true, stored);
    Set<String> present = new HashSet<>();
    volume.index.forEach((folder, files) -> files.keySet().forEach(name -> present.add(volume.prefix + Volume.child(folder, name))));
    volume.oversized.forEach(rel -> present.add(volume.prefix + rel));
    for (String key : stored.keySet()) {
      if (!present.contains(key)) {
        moveToDeleted(key);
      }
    }
    volume.synced = true;
  }

  /** Folder {@code folder} of {@code volume}; {@code deep} walks its subfolders too (stat only when unchanged). */
  void sync(Volume volume, String folder, boolean deep, Map<String, StoredObject> stored) throws IOException {
    if (!volume.index.containsKey(folder)) {
      // Watch before listing: a file made between the listing and the watch would otherwise go unseen.
      volume.index.put(folder, new ConcurrentHashMap<>());
      if (!volume.unwatched && !watches.watch(volume, folder)) {
        volume.unwatched = true;
      }
    }
    var listed = volume.tree.list(folder);
    if (listed.isEmpty()) {
      if (!folder.isEmpty()) {
        forget(volume, folder);
      } // the volume's own root: discovery tells a removed volume from an unmounted one
      return;
    }
    Map<String, Volume.Copied> known = volume.index.get(folder);
    Set<String> seenFiles = new HashSet<>();
    Set<String> seenFolders = new HashSet<>();
    List<String> descend = new ArrayList<>();
    List<Future<?>> pending = new ArrayList<>();
    for (SafeTree.Entry e : listed.get()) {
      String rel = Volume.child(folder, e.name());
      switch (e.kind()) {
        case FILE -> {
          seenFiles.add(e.name());
          if (e.size() > options.maxFileSize()) {
            if (volume.oversized.add(rel)) {
              report.skipped(volume.prefix + rel, "larger than " + options.maxFileSize() + " bytes");
            }
            continue;
          }
          volume.oversized.remove(rel);
          Volume.Copied copied = known.get(e.name());
          if (copied != null && copied.size() == e.size() && copied.mtimeMillis() == e.mtimeMillis()) {
            continue;
          }
          pending.add(uploads.submit(() -> {
            upload(volume, folder, e, stored);
            return null;
          }));
        }
        case FOLDER -> {
          seenFolders.add(rel);
          if (deep || !volume.index.containsKey(rel)) {
            descend.add(rel);
          }
        }
        case LINK -> report.skippedLink();
        case SPECIAL -> report.skippedSpecial();
      }
    }
    IOException failure = null;
    for (Future<?> f : pending) {
      try {
        f.get();
      } catch (ExecutionException ex) {
        if (failure == null) {
          failure = ex.getCause() instanceof IOException io ? io : new IOException(ex.getCause().getMessage(), ex.getCause());
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", ex);
      }
    }
    if (failure != null) {
      throw failure;
    }
    for (String name : List.copyOf(known.keySet())) {
      if (!seenFiles.contains(name)) {
        moveToDeleted(volume.prefix + Volume.child(folder, name));
        known.remove(name);
      }
    }
    volume.oversized.removeIf(rel -> Volume.parent(rel).equals(folder) && !seenFiles.contains(rel.substring(rel.lastIndexOf('/') + 1)));
    for (String sub : List.copyOf(volume.index.keySet())) {
      if (!sub.equals(folder) && Volume.parent(sub).equals(folder) && !seenFolders.contains(sub)) {
        forget(volume, sub);
      }
    }
    for (String sub : descend) {
      sync(volume, sub, true, stored);
    }
  }

  /** A folder that is gone: everything copied under it moves to {@code .deleted/}. */
  void forget(Volume volume, String folder) {
    for (String sub : List.copyOf(volume.index.keySet())) {
      if (!Volume.under(sub, folder)) {
        continue;
      }
      Map<String, Volume.Copied> files = volume.index.get(sub);
      for (String name : List.copyOf(files.keySet())) {
        moveToDeleted(volume.prefix + Volume.child(sub, name));
        files.remove(name);
      }
      volume.index.remove(sub);
      watches.unwatch(volume, sub);
    }
  }

  /** A volume whose folder was removed (its task or home deleted): its whole prefix moves to {@code .deleted/}. */
  void removed(String prefix) {
    List<String> keys = new ArrayList<>();
    bucket.list(prefix, o -> keys.add(o.key()));
    keys.forEach(this::moveToDeleted);
  }

  private void upload(Volume volume, String folder, SafeTree.Entry e, Map<String, StoredObject> stored) throws IOException {
    String rel = Volume.child(folder, e.name());
    String key = volume.prefix + rel;
    Path temp = Files.createTempFile(spool, "up", ".tmp");
    try {
      SafeTree.Copied copied;
      try (OutputStream out = Files.newOutputStream(temp)) {
        copied = volume.tree.copy(rel, out, options.maxFileSize());
      } catch (SafeTree.TooLarge tooLarge) {
        volume.oversized.add(rel);
        report.skipped(key, tooLarge.getMessage());
        return;
      } catch (NoSuchFileException gone) {
        return; // removed or replaced while it was read: the folder's next event covers it
      }
      String md5 = Bucket.hex(copied.md5());
      StoredObject have = stored == null ? null : stored.get(key);
      if (have == null || have.size() != copied.size() || !have.etag().equalsIgnoreCase(md5)) {
        bucket.put(key, temp, copied.size(), copied.md5(), Map.of(
            "mtime", Long.toString(e.mtimeMillis()),
            "mode", String.format("%04o", e.mode()),
            "sha256", Bucket.hex(copied.sha256())));
      }
      volume.index.computeIfAbsent(folder, f -> new ConcurrentHashMap<>())
          .put(e.name(), new Volume.Copied(copied.size(), e.mtimeMillis(), md5));
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private void moveToDeleted(String key) {
    String to = ".deleted/" + LocalDate.now(clock.withZone(ZoneOffset.UTC)) + "/" + key;
    try {
      bucket.move(key, to);
    } catch (NoSuchKeyException gone) {
      // never uploaded (or already moved): nothing to keep
    } catch (S3Exception e) {
      if (e.statusCode() != 404) {
        throw e;
      }
    }
  }
}
