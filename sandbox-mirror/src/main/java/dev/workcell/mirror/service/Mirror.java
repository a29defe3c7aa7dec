package dev.workcell.mirror.service;

import dev.workcell.mirror.client.Bucket;
import dev.workcell.mirror.config.MirrorOptions;
import io.quarkus.logging.Log;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Copies every volume of one sandbox-service instance into the bucket, one way, and keeps it
 * current from inotify (decision 0021). Idle volumes cost nothing: the watcher thread blocks in the
 * kernel and the worker waits on a monitor until a folder changes; the only timers are the listing
 * of one folder of volumes (discovery), the daily purge and the (rare) metadata-only reconciliation.
 * A changed folder is copied after {@code debounce} of quiet; a failure retries the same folder after
 * 1, 2, 4 … {@code maxBackoff}, so nothing is dropped while S3 is down.
 */
public final class Mirror implements AutoCloseable {

  /** A folder of a volume to bring in line; {@code folder == null} is the volume's first sync. */
  private record Key(Volume volume, String folder) {}

  private static final class Pending {
    final long sinceMillis;
    volatile long lastEventNanos;
    volatile boolean deep;
    volatile long retryAtNanos;

    Pending(long sinceMillis, long now, boolean deep) {
      this.sinceMillis = sinceMillis;
      this.lastEventNanos = now;
      this.deep = deep;
    }
  }

  /** S3 work that is not a folder: a removed volume, the startup check, the purge. Retried like folders. */
  private record Chore(String what, IoAction action) {}

  @FunctionalInterface
  private interface IoAction {
    void run() throws IOException;
  }

  private final MirrorOptions options;
  private final Bucket bucket;
  private final Clock clock;
  private final MirrorReport report;
  private final Map<String, Volume> volumes = new ConcurrentHashMap<>();
  private final Map<Key, Pending> pending = new ConcurrentHashMap<>();
  private final Deque<Chore> chores = new ArrayDeque<>();
  private final Map<WatchKey, Key> watched = new ConcurrentHashMap<>();
  private final Map<Key, WatchKey> watchOf = new ConcurrentHashMap<>();
  private final AtomicInteger watchCount = new AtomicInteger();
  private final Object signal = new Object();
  private final ExecutorService uploads;
  private final ScheduledExecutorService timer;
  private final FolderSync sync;
  private final DeletedPurge purge;
  private WatchService watchService;
  private Thread worker;
  private Thread watcher;
  private volatile boolean closed;
  private volatile boolean busy;
  private volatile boolean firstDiscovery = true;
  private int failures;

  public Mirror(MirrorOptions options, Bucket bucket, Clock clock, Path spool) {
    this.options = options;
    this.bucket = bucket;
    this.clock = clock;
    this.report = new MirrorReport(clock);
    this.uploads = Executors.newFixedThreadPool(options.uploadConcurrency(), Thread.ofPlatform().name("mirror-upload-", 0).daemon().factory());
    this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("mirror-timer").daemon().factory());
    this.sync = new FolderSync(bucket, options, clock, uploads, spool, report, new FolderSync.Watches() {
      @Override
      public boolean watch(Volume volume, String folder) {
        return Mirror.this.watch(volume, folder);
      }

      @Override
      public void unwatch(Volume volume, String folder) {
        Mirror.this.unwatch(volume, folder);
      }
    });
    this.purge = new DeletedPurge(bucket, options.retention(), clock);
    try {
      Files.createDirectories(spool);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public void start() throws IOException {
    watchService = FileSystems.getDefault().newWatchService();
    watcher = Thread.ofPlatform().name("mirror-inotify").daemon().start(this::watchLoop);
    worker = Thread.ofPlatform().name("mirror-worker").daemon().start(this::workLoop);
    timer.scheduleWithFixedDelay(this::discoverQuietly, 0, options.discoveryInterval().toMillis(), TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(() -> chore("purge of .deleted/", purge::run), 0, options.purgeInterval().toMillis(), TimeUnit.MILLISECONDS);
    if (!options.reconcileInterval().isZero()) {
      long every = options.reconcileInterval().toMillis();
      timer.scheduleWithFixedDelay(() -> reconcile(false), every, every, TimeUnit.MILLISECONDS);
    }
    long unwatched = options.unwatchedInterval().toMillis();
    timer.scheduleWithFixedDelay(() -> reconcile(true), unwatched, unwatched, TimeUnit.MILLISECONDS);
  }

  /** Deletions whose retention ended, now (the purge also runs every {@code purgeInterval}). */
  public void purgeNow() {
    chore("purge of .deleted/", purge::run);
  }

  /** True when nothing is pending: every volume synced, no folder or chore waiting, nothing in progress. */
  public boolean quiet() {
    synchronized (signal) {
      return !busy && pending.isEmpty() && chores.isEmpty() && volumes.values().stream().allMatch(v -> v.synced);
    }
  }

  public MirrorStatus status() {
    long now = clock.millis();
    long oldest = pending.values().stream().mapToLong(p -> p.sinceMillis).min().orElse(now);
    return new MirrorStatus(true, quiet(), bucket.name(), volumes.size(), (int) volumes.values().stream().filter(v -> !v.synced).count(),
        (int) volumes.values().stream().filter(v -> v.unwatched).count(), watchCount.get(),
        volumes.values().stream().mapToLong(Volume::objects).sum(), volumes.values().stream().mapToLong(Volume::bytes).sum(),
        pending.size(), Math.max(0, now - oldest) / 1000.0, bucket.puts(), bucket.bytesUploaded(), report.errors(),
        report.lastError(), report.lastErrorAt(), report.linksSkipped(), report.specialsSkipped(), report.oversizedSkipped(),
        report.recentSkips());
  }

  // ---- discovery: one listing of the instance folder

  private void discoverQuietly() {
    try {
      discover();
    } catch (IOException | RuntimeException e) {
      report.error("listing " + options.instanceRoot() + ": " + e.getMessage());
    }
  }

  void discover() throws IOException {
    Path root = options.instanceRoot();
    if (!Files.isDirectory(root)) {
      return;
    }
    Set<String> present = new HashSet<>();
    Set<String> mounted = new HashSet<>();
    try (DirectoryStream<Path> folders = Files.newDirectoryStream(root)) {
      for (Path folder : folders) {
        String name = folder.getFileName().toString();
        var prefix = Volume.prefixOf(name);
        if (prefix.isEmpty()) {
          continue;
        }
        present.add(prefix.get());
        Path data = folder.resolve("mnt").resolve("data");
        if (!Files.isDirectory(data, LinkOption.NOFOLLOW_LINKS)) {
          continue; // not mounted (yet): nothing to read, nothing taken for deleted
        }
        mounted.add(name);
        volumes.computeIfAbsent(name, n -> {
          Volume v = Volume.of(n, prefix.get(), data);
          mark(v, null, true);
          return v;
        });
      }
    }
    for (Volume v : List.copyOf(volumes.values())) {
      if (!mounted.contains(v.folderName)) {
        volumes.remove(v.folderName);
        List.copyOf(v.index.keySet()).forEach(f -> unwatch(v, f));
        pending.keySet().removeIf(k -> k.volume() == v);
        if (!present.contains(v.prefix)) {
          chore("removed volume " + v.prefix, () -> sync.removed(v.prefix));
        }
      }
    }
    if (firstDiscovery) {
      firstDiscovery = false;
      // Prefixes in the bucket whose volume was removed while the mirror was down.
      chore("removed volumes", () -> {
        for (String top : List.of("homes/", "tasks/")) {
          for (String prefix : bucket.folders(top)) {
            if (!present.contains(prefix)) {
              sync.removed(prefix);
            }
          }
        }
      });
    }
  }

  private void reconcile(boolean unwatchedOnly) {
    for (Volume v : volumes.values()) {
      if (v.synced && (!unwatchedOnly || v.unwatched)) {
        mark(v, "", true);
      }
    }
  }

  // ---- inotify

  private boolean watch(Volume volume, String folder) {
    if (watchCount.get() >= options.maxWatches()) {
      return false;
    }
    try {
      WatchKey key = volume.tree.root().resolve(folder).register(watchService, StandardWatchEventKinds.ENTRY_CREATE,
          StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY);
      Key target = new Key(volume, folder);
      if (watched.put(key, target) == null) {
        watchCount.incrementAndGet();
      }
      watchOf.put(target, key);
      return true;
    } catch (IOException e) {
      Log.warnf("no inotify watch for %s%s (%s): the volume is walked every %s instead", volume.prefix, folder, e.getMessage(),
          options.unwatchedInterval());
      return false;
    }
  }

  private void unwatch(Volume volume, String folder) {
    WatchKey key = watchOf.remove(new Key(volume, folder));
    if (key != null) {
      key.cancel();
      if (watched.remove(key) != null) {
        watchCount.decrementAndGet();
      }
    }
  }

  private void watchLoop() {
    while (!closed) {
      WatchKey key;
      try {
        key = watchService.take();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      Key target = watched.get(key);
      for (WatchEvent<?> event : key.pollEvents()) {
        if (target == null) {
          continue;
        }
        if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
          mark(target.volume(), "", true); // events were lost: walk the whole volume (stat only)
        } else {
          mark(target.volume(), target.folder(), false);
        }
      }
      if (!key.reset() && watched.remove(key) != null) {
        watchCount.decrementAndGet();
        if (target != null) {
          watchOf.remove(target);
        }
      }
    }
  }

  // ---- the worker

  private void mark(Volume volume, String folder, boolean deep) {
    long now = System.nanoTime();
    Pending p = pending.computeIfAbsent(new Key(volume, folder), k -> new Pending(clock.millis(), now, deep));
    p.lastEventNanos = now;
    p.deep |= deep;
    synchronized (signal) {
      signal.notifyAll();
    }
  }

  private void chore(String what, IoAction action) {
    synchronized (signal) {
      chores.addLast(new Chore(what, action));
      signal.notifyAll();
    }
  }

  private void workLoop() {
    long debounce = options.debounce().toNanos();
    while (!closed) {
      Chore chore;
      Map.Entry<Key, Pending> due = null;
      long wait = Long.MAX_VALUE;
      synchronized (signal) {
        chore = chores.pollFirst();
        if (chore == null) {
          long now = System.nanoTime();
          for (Map.Entry<Key, Pending> e : pending.entrySet()) {
            Pending p = e.getValue();
            long at = Math.max(p.lastEventNanos + debounce, p.retryAtNanos);
            if (at <= now) {
              // first syncs before folders, so a new volume's folders are not walked twice
              if (due == null || e.getKey().folder() == null) {
                due = e;
              }
            } else {
              wait = Math.min(wait, at - now);
            }
          }
          if (due == null) {
            try {
              // Idle: no timeout at all, so an idle mirror does no work until an event or a timer.
              if (wait == Long.MAX_VALUE) {
                signal.wait();
              } else {
                TimeUnit.NANOSECONDS.timedWait(signal, wait);
              }
            } catch (InterruptedException e) {
              return;
            }
            continue;
          }
          pending.remove(due.getKey(), due.getValue());
        }
        busy = true;
      }
      try {
        if (chore != null) {
          run(chore.what(), chore.action(), () -> {
            synchronized (signal) {
              chores.addLast(chore);
            }
          });
        } else {
          Key key = due.getKey();
          Pending p = due.getValue();
          run(key.volume().prefix + (key.folder() == null ? "" : key.folder()), () -> {
            if (key.folder() == null) {
              sync.initial(key.volume());
            } else if (key.volume().synced && volumes.containsValue(key.volume())) {
              sync.sync(key.volume(), key.folder(), p.deep, null);
            }
          }, () -> {
            Pending again = pending.merge(key, p, (old, mine) -> {
              old.deep |= mine.deep;
              return old;
            });
            again.retryAtNanos = System.nanoTime() + backoffNanos();
          });
        }
      } finally {
        synchronized (signal) {
          busy = false;
        }
      }
    }
  }

  private void run(String what, IoAction action, Runnable retry) {
    try {
      action.run();
      failures = 0;
    } catch (IOException | RuntimeException e) {
      failures++;
      report.error(what + ": " + causes(e));
      Log.warnf("mirror: %s failed (retry in %d ms): %s", what, backoffNanos() / 1_000_000, causes(e));
      retry.run();
      if (failures > 0) {
        // chores have no due time of their own: hold the worker for the backoff before the next try
        pauseForBackoff();
      }
    }
  }

  /** Each exception of the chain as "Class: message", so the root cause (a socket error under the SDK's) is named. */
  static String causes(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null && text.length() < 1000; t = t.getCause() == t ? null : t.getCause()) {
      text.append(text.isEmpty() ? "" : " <- ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    }
    return text.toString();
  }

  private void pauseForBackoff() {
    synchronized (signal) {
      try {
        TimeUnit.NANOSECONDS.timedWait(signal, backoffNanos());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private long backoffNanos() {
    long millis = Math.min(options.maxBackoff().toMillis(), 1000L << Math.min(20, Math.max(0, failures - 1)));
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }

  @Override
  public void close() {
    closed = true;
    timer.shutdownNow();
    if (watcher != null) {
      try {
        watchService.close();
      } catch (IOException ignored) {
        // closing
      }
    }
    if (worker != null) {
      worker.interrupt();
    }
    uploads.shutdownNow();
  }
}
