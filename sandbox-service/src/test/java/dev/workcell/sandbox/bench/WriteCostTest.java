package dev.workcell.sandbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import dev.workcell.contracts.sandbox.FileBytes;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WriteBytes;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.BulkMessage;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.runtime.SandboxNames;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * CPU and allocation per MB written (issue 23): 2 MB text writes as the gateway sends them (UTF-8
 * bytes after the JSON) and 2 MB byte writes, sequentially, through sandbox-service's NATS subjects
 * into a real sandbox. Prints sandbox-service's threads' CPU (event loops and celld's socket reader:
 * the test's own encoding is left out), the whole JVM's, celld's (from /proc/PID/stat) and bytes
 * allocated. Not in the default run ({@code -Dgroups=bench -DexcludedTestGroups=none -Dtest=WriteCostTest}).
 */
@QuarkusTest
@Tag("bench")
class WriteCostTest {

  private static final int WRITES = Integer.getInteger("writecost.writes", 100);
  private static final int WARMUP = Integer.getInteger("writecost.warmup", 40);
  private static final double MB = 1_000_000.0;

  @Inject
  SandboxClient sandboxes;

  @Inject
  NatsRequester requester;

  /** 2,000,000 bytes of source-like text: quotes, backslashes, tabs and non-ASCII that JSON escapes or encodes. */
  static byte[] text() {
    byte[] line = "\tprintf(\"h\u00e9llo, \\\"w\u00f6rld\\\" \u2713\\n\"); // \u00fcber\n".getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[2_000_000];
    for (int i = 0; i < out.length; i += line.length) {
      System.arraycopy(line, 0, out, i, Math.min(line.length, out.length - i));
    }
    int end = out.length; // never end inside a character
    while ((out[end - 1] & 0xC0) == 0x80 || (out[end - 1] & 0x80) != 0) {
      out[--end] = ' ';
    }
    return out;
  }

  @Test
  void measure() throws Exception {
    SandboxRef ref = sandboxes.newTask("writecost-owner");
    try {
      sandboxes.ensure(ref);
      byte[] text = text();
      byte[] binary = new byte[2_000_000];
      for (int i = 0; i < binary.length; i++) {
        binary[i] = (byte) (i * 131 + (i >> 9));
      }
      IntConsumer writeText = i -> {
        FileWritten w = requester.request(SandboxSubjects.FILES_WRITE,
            new BulkMessage<>(new WriteFile(ref, "cost/text.txt", null, null, true), text), SandboxClient.RUNNER,
            Duration.ofSeconds(60)).await().atMost(Duration.ofSeconds(65));
        assertThat(w.size()).isEqualTo(text.length);
      };
      IntConsumer writeBytes = i -> assertThat(sandboxes.call(SandboxSubjects.FILES_WRITE_BYTES,
          new WriteBytes(ref, "cost/data.bin", binary, null, true)).size()).isEqualTo(binary.length);
      String container = SandboxNames.container(ref.taskId());
      String textCost = run("text 2 MB", container, text.length, writeText);
      String bytesCost = run("bytes 2 MB", container, binary.length, writeBytes);
      // What was written is exactly what was sent.
      assertThat(readAll(ref, "cost/text.txt")).isEqualTo(text);
      assertThat(readAll(ref, "cost/data.bin")).isEqualTo(binary);
      String report = textCost + "\n" + bytesCost + "\n";
      System.out.print(report);
      Files.writeString(Path.of("target", "write-cost.txt"), report);
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  private byte[] readAll(SandboxRef ref, String path) {
    FileBytes chunk = sandboxes.call(SandboxSubjects.FILES_READ_BYTES, new ReadBytes(ref, path, 0L, 2_000_000));
    return chunk.data();
  }

  private String run(String name, String container, int size, IntConsumer write) throws IOException, InterruptedException {
    for (int i = 0; i < WARMUP; i++) {
      write.accept(i);
    }
    System.gc();
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Map<Long, long[]> before = serviceThreads(threads);
    long jvmCpu = os.getProcessCpuTime();
    long jvmAlloc = threads.getTotalThreadAllocatedBytes();
    long celld = celldTicks(container);
    long start = System.nanoTime();
    for (int i = 0; i < WRITES; i++) {
      write.accept(i);
    }
    long wall = System.nanoTime() - start;
    long celldAfter = celldTicks(container);
    long jvmCpuAfter = os.getProcessCpuTime();
    long jvmAllocAfter = threads.getTotalThreadAllocatedBytes();
    Map<Long, long[]> after = serviceThreads(threads);
    long serviceCpu = 0;
    long serviceAlloc = 0;
    for (Map.Entry<Long, long[]> e : after.entrySet()) {
      long[] was = before.getOrDefault(e.getKey(), new long[2]);
      serviceCpu += e.getValue()[0] - was[0];
      serviceAlloc += e.getValue()[1] - was[1];
    }
    double mb = (double) WRITES * size / MB;
    return String.format(Locale.ROOT,
        "%s x %d: sandbox-service threads %.2f ms CPU/MB, %.2f MB allocated/MB; whole test JVM %.2f ms CPU/MB, %.2f MB allocated/MB;"
            + " celld %.2f ms CPU/MB; wall %.1f ms/write",
        name, WRITES, serviceCpu / 1e6 / mb, serviceAlloc / MB / mb, (jvmCpuAfter - jvmCpu) / 1e6 / mb,
        (jvmAllocAfter - jvmAlloc) / MB / mb, (celldAfter - celld) * 10.0 / mb, wall / 1e6 / WRITES);
  }

  /** CPU ns and allocated bytes of sandbox-service's request threads: the event loops and celld's socket readers. */
  private static Map<Long, long[]> serviceThreads(ThreadMXBean threads) {
    Map<Long, long[]> out = new HashMap<>();
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && (info.getThreadName().startsWith("vert.x-eventloop") || info.getThreadName().startsWith("celld-socket"))) {
        long id = info.getThreadId();
        out.put(id, new long[] {threads.getThreadCpuTime(id), threads.getThreadAllocatedBytes(id)});
      }
    }
    return out;
  }

  /** utime + stime (clock ticks, 100 Hz) of every celld in the container, read from the host's /proc. */
  private static long celldTicks(String container) throws IOException, InterruptedException {
    Process top = new ProcessBuilder("docker", "top", container, "-eo", "pid,comm").redirectErrorStream(true).start();
    List<String> lines = new String(top.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    top.waitFor();
    long ticks = 0;
    for (String line : lines) {
      String[] cols = line.trim().split("\\s+");
      if (cols.length == 2 && cols[1].equals("celld")) {
        String stat = Files.readString(Path.of("/proc", cols[0], "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime (fields 14 and 15)
      }
    }
    assertThat(ticks).as("celld's CPU in " + container + " " + Arrays.toString(lines.toArray())).isPositive();
    return ticks;
  }
}
