package dev.workcell.mirror.service;

import dev.workcell.mirror.client.Bucket;
import dev.workcell.mirror.config.MirrorOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/mirror (not a test: run by bench/mirror/run.sh with -Dworkcell.bench=true). Each number is
 * printed with its baseline from the same run: the lag beside one direct PUT of the same size, the
 * initial sync beside the same files PUT directly with the same concurrency.
 */
@EnabledIfSystemProperty(named = "workcell.bench", matches = "true")
class MirrorBench {

  @TempDir
  Path work;

  @Test
  void bench() throws Exception {
    try (S3Server server = new S3Server(work.resolve("s3"))) {
      Path root = work.resolve("disks");
      initialSync(server, root);
      lag(server, root);
      idle(server, root);
    }
  }

  private void initialSync(S3Server server, Path root) throws Exception {
    int files = Integer.getInteger("bench.files", 10_000);
    Path data = Files.createDirectories(root.resolve("default/workcell-ws-bench-sync/mnt/data"));
    for (int i = 0; i < files; i++) {
      Path f = data.resolve("d" + (i % 100)).resolve("f" + i + ".txt");
      Files.createDirectories(f.getParent());
      Files.writeString(f, "small file " + i + " ".repeat(200));
    }
    Bucket direct = server.bucket();
    Path one = data.resolve("d0/f0.txt");
    byte[] md5 = java.security.MessageDigest.getInstance("MD5").digest(Files.readAllBytes(one));
    long size = Files.size(one);
    long t0 = System.nanoTime();
    try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < files; i++) {
        String key = "baseline/f" + i;
        all.add(pool.submit(() -> direct.put(key, one, size, md5, Map.of())));
      }
      for (Future<?> f : all) {
        f.get();
      }
    }
    double baseline = (System.nanoTime() - t0) / 1e9;
    Mirror mirror = start(server.bucket(), root);
    long t1 = System.nanoTime();
    while (!(mirror.quiet() && mirror.status().objects() == files)) {
      Thread.sleep(20);
    }
    double sync = (System.nanoTime() - t1) / 1e9;
    mirror.close();
    System.out.printf("BENCH initial sync of %d small files: %.1f s (direct PUTs, 4 threads: %.1f s; ratio %.2f)%n", files, sync, baseline,
        sync / baseline);
    Mirror again = start(server.bucket(), root);
    long t2 = System.nanoTime();
    while (!(again.quiet() && again.status().objects() == files)) {
      Thread.sleep(20);
    }
    System.out.printf("BENCH restart over the same %d files: %.1f s, %d PUTs%n", files, (System.nanoTime() - t2) / 1e9, again.status().puts());
    again.close();
  }

  private void lag(S3Server server, Path root) throws Exception {
    Path data = Files.createDirectories(root.resolve("default/workcell-home-" + "ee".repeat(32) + "/mnt/data"));
    Mirror mirror = start(server.bucket(), root);
    Bucket probe = server.bucket();
    while (!mirror.quiet() || mirror.status().volumes() < 2) {
      Thread.sleep(20);
    }
    List<Double> lags = new ArrayList<>();
    List<Double> puts = new ArrayList<>();
    for (int i = 0; i < Integer.getInteger("bench.writes", 100); i++) {
      Path f = data.resolve("w" + (i % 10)).resolve("file" + i + ".txt");
      Files.createDirectories(f.getParent());
      String key = "homes/" + "ee".repeat(32) + "/w" + (i % 10) + "/file" + i + ".txt";
      long t = System.nanoTime();
      Files.writeString(f, "write " + i);
      while (!exists(probe, key)) {
        Thread.sleep(5);
      }
      lags.add((System.nanoTime() - t) / 1e6);
      long p = System.nanoTime();
      probe.put("baseline/put" + i, f, Files.size(f), java.security.MessageDigest.getInstance("MD5").digest(Files.readAllBytes(f)), Map.of());
      puts.add((System.nanoTime() - p) / 1e6);
    }
    mirror.close();
    Collections.sort(lags);
    Collections.sort(puts);
    System.out.printf("BENCH write-to-object lag over %d writes: p50 %.0f ms, p99 %.0f ms (one direct PUT: p50 %.0f ms; debounce 300 ms)%n",
        lags.size(), pct(lags, 50), pct(lags, 99), pct(puts, 50));
  }

  private void idle(S3Server server, Path root) throws Exception {
    for (int h = 0; h < 50; h++) {
      Path home = Files.createDirectories(root.resolve("default/workcell-home-" + String.format("%064x", h + 1) + "/mnt/data"));
      for (int f = 0; f < 20; f++) {
        Files.writeString(Files.createDirectories(home.resolve("dir" + (f % 4))).resolve("f" + f), "idle " + f);
      }
    }
    Mirror mirror = start(server.bucket(), root);
    while (!mirror.quiet() || mirror.status().volumes() < 52) {
      Thread.sleep(50);
    }
    Thread.sleep(2000);
    var threads = ManagementFactory.getThreadMXBean();
    long before = mirrorCpu(threads);
    long seconds = Long.getLong("bench.idle-seconds", 30);
    Thread.sleep(seconds * 1000);
    long used = mirrorCpu(threads) - before;
    System.out.printf("BENCH idle mirror with %d volumes (50 idle homes), %d watches: %.1f ms CPU of the mirror's threads in %d s%n",
        mirror.status().volumes(), mirror.status().watches(), used / 1e6, seconds);
    mirror.close();
  }

  private static long mirrorCpu(java.lang.management.ThreadMXBean threads) {
    long sum = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("mirror-")) {
        sum += Math.max(0, threads.getThreadCpuTime(t.threadId()));
      }
    }
    return sum;
  }

  private static boolean exists(Bucket bucket, String key) {
    try {
      bucket.metadata(key);
      return true;
    } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException e) {
      return false;
    } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
      if (e.statusCode() == 404) {
        return false;
      }
      throw e;
    }
  }

  private static double pct(List<Double> sorted, int p) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
  }

  private Mirror start(Bucket bucket, Path root) throws IOException {
    MirrorOptions options = new MirrorOptions(root, "default", 256L << 20, Duration.ofDays(7), Duration.ofMillis(300),
        Duration.ofSeconds(5), Duration.ofHours(24), Duration.ofHours(1), 100_000, Duration.ofSeconds(60), 4, Duration.ofSeconds(30));
    Mirror mirror = new Mirror(options, bucket, java.time.Clock.systemUTC(), work.resolve("spool"));
    mirror.start();
    return mirror;
  }
}
