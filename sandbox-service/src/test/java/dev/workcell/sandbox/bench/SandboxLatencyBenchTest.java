package dev.workcell.sandbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.ping.Ping;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.runtime.SandboxNames;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Latency of sandbox-service's NATS API against a raw {@code docker exec} of the same work, measured
 * in one run (the baseline), plus cold start and celld's idle RSS. Not part of the default test run:
 * bench/sandbox-latency/run.sh runs it with -Dgroups=bench and writes results.md.
 */
@QuarkusTest
@Tag("bench")
class SandboxLatencyBenchTest {

  private static final int API_ITERATIONS = Integer.getInteger("bench.iterations", 1000);
  private static final int CLI_ITERATIONS = 30;
  /** A long-running service answers from JIT-compiled code: warm up past the C2 thresholds first. */
  private static final int API_WARMUP = Integer.getInteger("bench.warmup", 3000);
  private static final int CLI_WARMUP = 3;
  private static final int COLD_RUNS = 3;
  private static final String CONTENT = "0123456789abcdef".repeat(256); // 4096 bytes
  /** The image sandbox-service runs (WORKCELL_SANDBOX_RUNTIME_IMAGE in a private-tag run), for the baseline too. */
  private static final String IMAGE = System.getenv().getOrDefault("WORKCELL_SANDBOX_RUNTIME_IMAGE", "workcell/sandbox:dev");

  @Inject
  SandboxClient sandboxes;

  record Row(String operation, Stats api, Stats cli) {}

  record Stats(int n, double p50, double p99) {
    static Stats of(List<Double> millis) {
      double[] sorted = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      return new Stats(sorted.length, percentile(sorted, 0.50), percentile(sorted, 0.99));
    }

    private static double percentile(double[] sorted, double q) {
      return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
    }
  }

  @Test
  void measure() throws Exception {
    String loadBefore = loadAverage();
    SandboxRef ref = sandboxes.newTask("bench-owner");
    List<String> cold = new ArrayList<>();
    try {
      sandboxes.ensure(ref);
      String container = SandboxNames.container(ref.taskId());
      sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "bench-4k.txt", CONTENT, null, false));

      List<Row> rows = new ArrayList<>();
      rows.add(new Row("read_file 4 KB",
          timeApi(() -> sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "bench-4k.txt"))),
          timeCli(() -> docker(null, "exec", container, "cat", "/workspace/bench-4k.txt"))));
      rows.add(new Row("write_file 4 KB",
          timeApi(() -> sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "bench-w.txt", CONTENT, null, false))),
          timeCli(() -> docker(CONTENT, "exec", "-i", container, "sh", "-c", "cat > /workspace/bench-w-cli.txt"))));
      rows.add(new Row("run_command true",
          timeApi(() -> sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "true", 30))),
          timeCli(() -> docker(null, "exec", container, "true"))));

      // The bus and the service's dispatch with no celld behind them: every API row pays this first.
      Stats ping = timeApi(() -> sandboxes.call(Subjects.ping(ServiceName.SANDBOX), new Ping("bench")));
      String floors = floors(container);
      CelldMemory memory = celldMemory(container);
      double coldApi = median(coldApi(cold));
      double coldCli = median(coldCli());
      String report = report(rows, ping, floors, coldApi, coldCli, memory, loadBefore, loadAverage());
      System.out.println(report);
      Path out = Path.of(System.getProperty("bench.output", "../bench/sandbox-latency/results.md"));
      Files.writeString(out, report, StandardCharsets.UTF_8);
      assertThat(memory.vmRssKb()).isPositive();
    } finally {
      sandboxes.deleteQuietly(ref);
      cold.forEach(id -> sandboxes.deleteQuietly(new SandboxRef(id, "bench-cold")));
    }
  }

  private static Stats timeApi(Supplier<?> call) {
    return time(call, API_WARMUP, API_ITERATIONS);
  }

  private static Stats timeCli(Supplier<?> call) {
    return time(call, CLI_WARMUP, CLI_ITERATIONS);
  }

  private static Stats time(Supplier<?> call, int warmup, int iterations) {
    for (int i = 0; i < warmup; i++) {
      call.get();
    }
    List<Double> millis = new ArrayList<>(iterations);
    for (int i = 0; i < iterations; i++) {
      long start = System.nanoTime();
      call.get();
      millis.add((System.nanoTime() - start) / 1e6);
    }
    return Stats.of(millis);
  }

  /** From "no container" to the first output of a command, through the API (create, start, celld, exec). */
  private List<Double> coldApi(List<String> created) {
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < COLD_RUNS; i++) {
      SandboxRef ref = sandboxes.newTask("bench-cold");
      created.add(ref.taskId());
      long start = System.nanoTime();
      CommandResult result = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "echo first", 30));
      millis.add((System.nanoTime() - start) / 1e6);
      assertThat(result.stdout()).isEqualTo("first\n");
      sandboxes.deleteQuietly(ref);
    }
    return millis;
  }

  /** The same with the Docker CLI: a hardened docker run that prints once. */
  private static List<Double> coldCli() {
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < COLD_RUNS; i++) {
      long start = System.nanoTime();
      String out = docker(null, "run", "--rm", "--user", "1000:1000", "--read-only", "--tmpfs", "/tmp:rw,nosuid,nodev,size=64m",
          "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--init", "--memory", "2g", "--memory-swap", "2g",
          "--network", "none", "--label", "dev.workcell.test=true", IMAGE, "echo", "first");
      millis.add((System.nanoTime() - start) / 1e6);
      assertThat(out).isEqualTo("first\n");
    }
    return millis;
  }

  /**
   * What the work itself costs inside the sandbox, with no Workcell in between, in the same run: the
   * atomic write celld must do (O_EXCL temp file, fsync, rename) and a process start, plain and via
   * bash. No API can answer faster than these; they show how much of each API number is overhead.
   */
  private static String floors(String container) {
    String script = String.join("\n",
        "import os, subprocess, time",
        "def pct(v):",
        "    v.sort(); return '%.2f | %.2f' % (v[len(v) // 2], v[int(len(v) * 0.99) - 1])",
        "data = b'0123456789abcdef' * 256",
        "w = []",
        "for i in range(300):",
        "    t = time.perf_counter()",
        "    fd = os.open('/workspace/.floor.tmp', os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)",
        "    os.write(fd, data); os.fsync(fd); os.close(fd); os.rename('/workspace/.floor.tmp', '/workspace/.floor')",
        "    w.append((time.perf_counter() - t) * 1000)",
        "os.unlink('/workspace/.floor')",
        "print('| write 4 KB: O_EXCL temp file, fsync, rename (what celld does) | ' + pct(w) + ' |')",
        "for label, argv in (('start `/bin/true`', ['/bin/true']), ('start `bash -c true`', ['/bin/bash', '-c', 'true'])):",
        "    s = []",
        "    for i in range(200):",
        "        t = time.perf_counter(); subprocess.run(argv); s.append((time.perf_counter() - t) * 1000)",
        "    print('| process ' + label + ' | ' + pct(s) + ' |')");
    return docker(null, "exec", "--user", "1000:1000", container, "python3", "-c", script);
  }

  /** celld's memory from /proc; the binary's clean pages (RssFile) are shared page cache, the same pages for every sandbox. */
  record CelldMemory(long vmRssKb, long anonKb, long fileKb) {}

  private static CelldMemory celldMemory(String container) throws InterruptedException {
    Thread.sleep(3000); // celld returns freed memory 2 s after its last request: measure it idle
    String out = docker(null, "exec", container, "sh", "-c",
        "for p in /proc/[0-9]*; do [ \"$(cat $p/comm 2>/dev/null)\" = celld ] && grep -E '^(VmRSS|RssAnon|RssFile):' $p/status; done; true");
    return new CelldMemory(kb(out, "VmRSS"), kb(out, "RssAnon"), kb(out, "RssFile"));
  }

  private static long kb(String status, String field) {
    return Arrays.stream(status.split("\n")).filter(l -> l.startsWith(field + ":")).mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")))
        .max().orElse(0);
  }

  private static String docker(String stdin, String... args) {
    List<String> command = new ArrayList<>(List.of("docker"));
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      if (stdin != null) {
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.waitFor() != 0) {
        throw new IllegalStateException("docker " + String.join(" ", args) + " failed");
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static double median(List<Double> values) {
    return Stats.of(values).p50();
  }

  /** The 1, 5 and 15 minute load averages: the machine is shared, so numbers mean little without them. */
  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static String report(List<Row> rows, Stats ping, String floors, double coldApi, double coldCli, CelldMemory memory, String loadBefore, String loadAfter) {
    StringBuilder md = new StringBuilder();
    md.append("# sandbox-latency\n\n");
    md.append("Generated by `bench/sandbox-latency/run.sh` on ").append(Instant.now()).append(" (")
        .append(Runtime.getRuntime().availableProcessors()).append(" CPUs). Baseline: the same work as a raw `docker exec` ")
        .append("through the Docker CLI, measured in the same run. API = a NATS request to sandbox-service, which ")
        .append("sends one frame to the sandbox's long-lived celld. Milliseconds. Load average (1/5/15 min) ")
        .append(loadBefore).append(" at the start, ").append(loadAfter).append(" at the end.\n\n");
    md.append("| operation | API n | API p50 | API p99 | docker exec n | docker exec p50 | docker exec p99 | p50 ratio API/docker |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Row row : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %d | %.2f | %.2f | %.3f |%n", row.operation(),
          row.api().n(), row.api().p50(), row.api().p99(), row.cli().n(), row.cli().p50(), row.cli().p99(),
          row.api().p50() / row.cli().p50()));
    }
    md.append(String.format(Locale.ROOT, "%nFloor of every API row: a NATS ping of sandbox-service (bus + dispatch, no celld) "
        + "p50 %.2f, p99 %.2f ms.%n", ping.p50(), ping.p99()));
    md.append("\nFloors: the same work natively inside the sandbox (python3, no Workcell in between), same run, ms.\n\n");
    md.append("| work | p50 | p99 |\n|---|---:|---:|\n").append(floors);
    md.append(String.format(Locale.ROOT, "%n| cold start to first output (median of %d) | ms |%n|---|---:|%n", COLD_RUNS));
    md.append(String.format(Locale.ROOT, "| API: EXEC `echo first` on a task without a container (create, verify, start, celld, exec) | %.0f |%n", coldApi));
    md.append(String.format(Locale.ROOT, "| baseline: hardened `docker run --rm ... echo first` | %.0f |%n", coldCli));
    md.append(String.format(Locale.ROOT, "| ratio API/baseline | %.2f |%n", coldApi / coldCli));
    md.append(String.format(Locale.ROOT, "%ncelld idle RSS (VmRSS from /proc inside the sandbox, 3 s after its last request): %d kB"
        + " = %d kB private (RssAnon) + %d kB of its binary's clean pages (RssFile, page cache shared by every sandbox of the image)%n",
        memory.vmRssKb(), memory.anonKb(), memory.fileKb()));
    return md.toString();
  }
}
