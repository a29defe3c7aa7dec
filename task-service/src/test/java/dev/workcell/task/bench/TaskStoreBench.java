package dev.workcell.task.bench;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.ping.Ping;
import dev.workcell.contracts.ping.Pong;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.RunnerApi.RecordRound;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.MessageHeaders;
import dev.workcell.messaging.ActorHeaders;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.WorkClient;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The task store under load, measured over NATS exactly as the gateway and the runner use it:
 * 20 concurrent clients, each with its own account. A NATS ping to task-service in the same run is
 * the baseline, so results read as ratios. Run by bench/task-store/run.sh, never by a test run.
 */
@Tag("bench")
@QuarkusTest
class TaskStoreBench {

  private static final int CLIENTS = Integer.getInteger("bench.clients", 20);
  private static final int CREATES_PER_CLIENT = 50;
  private static final int APPENDS_PER_CLIENT = 200;
  private static final int PAGES_PER_CLIENT = 100;
  private static final double GOAL_P99_MS = 15.0;
  /** The paced run: each client starts a call every this many ms, as people and runners do, not back to back. */
  private static final int PACE_MS = Integer.getInteger("bench.pace-ms", 100);
  /** Calls per client and operation in the paced run; its creates stay within the per-user task cap. */
  private static final int PACED_CALLS = 40;
  /** The warm-up ends when the JIT's threads used less than this share of the machine's CPU in a round... */
  private static final double QUIET_JIT_SHARE = 0.03;
  /** ...or after this many rounds. */
  private static final int MAX_WARM_UP_ROUNDS = 5;
  /** Clock ticks of /proc/stat (USER_HZ, 100 on Linux). */
  private static final int TICKS_PER_SECOND = 100;

  @Inject
  NatsRequester nats;

  @Inject
  NatsConnection serviceConnection;

  @Inject
  MessageCodec codec;

  @Test
  void measure() throws Exception {
    WorkClient work = new WorkClient(nats);
    List<Client> clients = new ArrayList<>();
    Queue<Created> created = new ConcurrentLinkedQueue<>();
    // One client more than the loaded runs use: the single-client run has its own account (task cap).
    for (int i = 0; i <= CLIENTS; i++) {
      Actor owner = work.admin();
      TaskCreated paged = work.createTask(owner, "page source");
      for (int m = 0; m < 210; m++) {
        work.call(TaskSubjects.RUNNER_ROUND, new RecordRound(paged.task().id(), paged.run().id(), 0, 0, 0,
            "x".repeat(500) + m, null), WorkClient.RUNNER);
      }
      TaskCreated appendTarget = work.createTask(owner, "append target");
      created.add(new Created(owner, paged.task().id()));
      created.add(new Created(owner, appendTarget.task().id()));
      clients.add(new Client(owner, paged, appendTarget));
    }
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    // The callers get their own connection, as the gateway and the runner (other processes) have, and
    // decode replies on their own threads: on the service's connection one jnats thread would decode
    // all 20 callers' 150 kB pages in turn and the bench would time its own queue.
    try (BenchBus bus = new BenchBus(serviceConnection.url(), codec)) {
      String loadBefore = loadAverage();
      List<Client> loadedClients = clients.subList(0, CLIENTS);
      WarmUp warmUp = warmUp(bus, pool, loadedClients, work);
      List<Row> single = suite(bus, pool, clients.subList(CLIENTS, CLIENTS + 1), Client::owner, created, 0);
      List<Row> loaded = suite(bus, pool, loadedClients, Client::owner, created, 0);
      List<Row> paced = suite(bus, pool, loadedClients, Client::owner, created, PACE_MS);
      report(loaded, paced, single, warmUp, loadBefore + " before, " + loadAverage() + " after");
    } finally {
      // Leave the database as the bench found it: later runs count tasks against the caps.
      delete(pool, work, created);
      pool.shutdownNow();
    }
  }

  /** Deletes the tasks, each as its owner, {@link #CLIENTS} at a time. */
  private static void delete(ExecutorService pool, WorkClient work, Queue<Created> tasks) throws Exception {
    List<Future<?>> deletions = new ArrayList<>();
    for (int worker = 0; worker < CLIENTS; worker++) {
      deletions.add(pool.submit(() -> {
        for (Created task = tasks.poll(); task != null; task = tasks.poll()) {
          work.call(TaskSubjects.DELETE, new TaskRef(task.id()), task.owner());
        }
      }));
    }
    for (Future<?> deletion : deletions) {
      deletion.get();
    }
  }

  /**
   * Full-size rounds of every operation until the JIT is quiet (C2 needs thousands of calls per
   * path; after one round its threads still took a fifth of the CPU of the measured creates) and
   * every pool connection has its prepared statements; returns how many it took and the JIT's share
   * of the machine's CPU in the last. Each round creates as fresh accounts, so the caps hold, and
   * deletes its tasks again: every create counts the instance's tasks (up to the global cap), so
   * thousands left over would make the measured creates dearer than any real instance's.
   */
  private static WarmUp warmUp(BenchBus bus, ExecutorService pool, List<Client> clients, WorkClient work)
      throws Exception {
    for (int round = 1; ; round++) {
      Map<Client, Actor> owners = new HashMap<>();
      for (Client client : clients) {
        owners.put(client, work.admin());
      }
      Queue<Created> created = new ConcurrentLinkedQueue<>();
      long jitBefore = jitTicks();
      long start = System.nanoTime();
      suite(bus, pool, clients, owners::get, created, 0);
      double jitShare = (jitTicks() - jitBefore) / ((System.nanoTime() - start) / 1e9 * TICKS_PER_SECOND
          * Runtime.getRuntime().availableProcessors());
      delete(pool, work, created);
      if (jitShare < QUIET_JIT_SHARE || round == MAX_WARM_UP_ROUNDS) {
        return new WarmUp(round, jitShare);
      }
    }
  }

  /**
   * Every operation with the given clients, back to back ({@code paceMs} 0) or paced; each client
   * creates as {@code creator} says and every created task is recorded for the clean-up.
   */
  private static List<Row> suite(BenchBus work, ExecutorService pool, List<Client> clients,
      Function<Client, Actor> creator, Queue<Created> created, int paceMs) throws Exception {
    Actor pinger = Actor.service(ServiceName.GATEWAY);
    List<Row> rows = new ArrayList<>();
    rows.add(run("NATS ping to task-service (baseline)", pool, clients, PAGES_PER_CLIENT, paceMs,
        c -> work.call(Subjects.ping(ServiceName.TASK), new Ping("bench"), pinger)));
    rows.add(run("create task + first run", pool, clients, CREATES_PER_CLIENT, paceMs, c -> {
      Actor owner = creator.apply(c);
      String id = work.call(TaskSubjects.CREATE, new CreateTask(null, "bench task", ProviderKind.OLLAMA, "ollama", "qwen3:8b",
          null), owner).task().id();
      return created.add(new Created(owner, id));
    }));
    rows.add(run("append message (runner)", pool, clients, APPENDS_PER_CLIENT, paceMs,
        c -> work.call(TaskSubjects.RUNNER_ROUND, new RecordRound(c.appendTarget.task().id(),
            c.appendTarget.run().id(), 0, 0, 0, "a reply of a few words", null),
            WorkClient.RUNNER)));
    rows.add(run("read a 200-message page", pool, clients, PAGES_PER_CLIENT, paceMs, c -> {
      MessagePage page = work.call(TaskSubjects.MESSAGE_PAGE, new PageMessages(c.paged.task().id(), null, 200), c.owner);
      if (page.messages().size() != 200) {
        throw new IllegalStateException("page of " + page.messages().size());
      }
      return page;
    }));
    return rows;
  }

  /**
   * Each of the clients runs {@code backToBack} calls back to back or, paced, {@link #PACED_CALLS}
   * calls one every {@code paceMs} (the clients' schedules staggered); the row holds every latency in
   * ms. A paced call is timed from when it was due, so a late start counts against the service (no
   * coordinated omission). A disk probe runs in the same window.
   */
  private static Row run(String name, ExecutorService pool, List<Client> clients, int backToBack, int paceMs,
      Call call) throws Exception {
    int perClient = paceMs > 0 ? PACED_CALLS : backToBack;
    DiskProbe probe = new DiskProbe();
    long busyBefore = machineBusyTicks();
    List<Future<double[]>> futures = new ArrayList<>();
    long origin = System.nanoTime() + Duration.ofMillis(20).toNanos();
    for (int c = 0; c < clients.size(); c++) {
      Client client = clients.get(c);
      long offset = paceMs * 1_000_000L * c / clients.size();
      Callable<double[]> task = () -> {
        double[] latencies = new double[perClient];
        for (int i = 0; i < perClient; i++) {
          long start = System.nanoTime();
          if (paceMs > 0) {
            long due = origin + offset + i * paceMs * 1_000_000L;
            long wait = due - start;
            if (wait > 0) {
              Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            start = due;
          }
          call.apply(client);
          latencies[i] = (System.nanoTime() - start) / 1_000_000.0;
        }
        return latencies;
      };
      futures.add(pool.submit(task));
    }
    List<Double> all = new ArrayList<>();
    try (probe) {
      for (Future<double[]> future : futures) {
        for (double latency : future.get()) {
          all.add(latency);
        }
      }
      double cpuMsPerCall = (machineBusyTicks() - busyBefore) * 1000.0 / TICKS_PER_SECOND / all.size();
      return new Row(name, all.stream().mapToDouble(Double::doubleValue).sorted().toArray(), probe.latencies(),
          cpuMsPerCall);
    }
  }

  private static void report(List<Row> loaded, List<Row> paced, List<Row> single, WarmUp warmUp, String load)
      throws IOException {
    String text = "# task-store bench\n\n"
        + "Measured " + Instant.now() + " by `bench/task-store/run.sh` against task-service on the test PostgreSQL"
        + " and nats-server of the same machine. Latency is request to reply as the caller sees it, over NATS."
        + " The ping row is the baseline measured in the same run; ratios are against its p99.\n\n"
        + "## " + CLIENTS + " concurrent clients (one account each), back to back\n\n"
        + "Each call waits for the others' CPU: with " + CLIENTS + " clients on "
        + Runtime.getRuntime().availableProcessors() + " CPUs, p50 is about " + CLIENTS + " × CPU per call ÷ "
        + Runtime.getRuntime().availableProcessors() + ".\n\n" + table(loaded, true)
        + "\n## " + CLIENTS + " concurrent clients, each starting a call every " + PACE_MS + " ms ("
        + CLIENTS * 1000 / PACE_MS + " calls/s in all)\n\n" + table(paced, false)
        + "\n## 1 client (service time without queueing)\n\n" + table(single, false)
        + "\nPages hold 200 messages of about 500 bytes. Java " + Runtime.version() + ", "
        + Runtime.getRuntime().availableProcessors() + " CPUs, the launcher's collector (Serial); the clients run in"
        + " the service's JVM on a NATS connection of their own, after " + warmUp.rounds() + " full-size warm-up round(s)"
        + String.format(Locale.ROOT, " (in the last one the JIT's threads used %.1f %% of the machine's CPU).",
            warmUp.jitShare() * 100)
        + " Machine load average (1 min): " + load + ". Every write commits with fsync (synchronous_commit on), so a create or"
        + " an append cannot have a shorter tail than the disk: the disk column is an 8 kB write + fdatasync every"
        + " 10 ms on the working tree's filesystem (where the launcher's PostgreSQL keeps its WAL) while the"
        + " row's calls ran.\n";
    System.out.println("\n" + text);
    Path out = Path.of(System.getProperty("bench.results", "../bench/task-store/results.md"));
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, text);
  }

  /**
   * CPU time the whole machine spent busy so far (every process: the service, PostgreSQL, NATS and
   * the clients), in clock ticks; -1 where /proc/stat cannot be read.
   */
  private static long machineBusyTicks() {
    try {
      String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      // user nice system idle iowait irq softirq steal: everything but idle and iowait.
      return Long.parseLong(cpu[1]) + Long.parseLong(cpu[2]) + Long.parseLong(cpu[3]) + Long.parseLong(cpu[6])
          + Long.parseLong(cpu[7]) + Long.parseLong(cpu[8]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** CPU time of this JVM's JIT compiler threads so far, in clock ticks (0 where /proc cannot tell). */
  private static long jitTicks() {
    long ticks = 0;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path thread : threads) {
        ticks += jitThreadTicks(thread);
      }
    } catch (IOException e) {
      return 0;
    }
    return ticks;
  }

  /** A compiler thread's CPU time; 0 for other threads and for one that ended while it was read. */
  private static long jitThreadTicks(Path thread) {
    try {
      String stat = Files.readString(thread.resolve("stat"));
      if (!stat.contains("(C1 CompilerThre") && !stat.contains("(C2 CompilerThre")) {
        return 0;
      }
      // Fields after the ")" that ends the thread's name: utime and stime are the 12th and 13th.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (IOException e) {
      return 0;
    }
  }

  /** Other work on the machine skews every number here, so the report says how busy it was. */
  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /**
   * {@code withCpu} only where the machine is saturated: elsewhere the idle machine's own work would
   * be counted against a handful of calls.
   */
  private static String table(List<Row> rows, boolean withCpu) {
    Row baseline = rows.get(0);
    StringBuilder table = new StringBuilder();
    table.append("| operation | calls | p50 ms | p99 ms | p99 / baseline p99 |"
        + (withCpu ? " machine CPU ms per call |" : "") + " disk fsync p99 / max ms, same window | goal p99 ≤ 15 ms |\n");
    table.append("|---|---:|---:|---:|---:|" + (withCpu ? "---:|" : "") + "---:|---|\n");
    for (Row row : rows) {
      table.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.1f× |", row.name, row.latencies.length,
          row.p(50), row.p(99), row.p(99) / baseline.p(99)));
      if (withCpu) {
        table.append(String.format(Locale.ROOT, " %.2f |", row.cpuMsPerCall));
      }
      table.append(String.format(Locale.ROOT, " %.1f / %.0f | %s |%n", Row.p(row.disk, 99),
          row.disk[row.disk.length - 1], row == baseline ? "—" : row.p(99) <= GOAL_P99_MS ? "met" : "missed"));
    }
    return table.toString();
  }

  @FunctionalInterface
  private interface Call {
    Object apply(Client client) throws Exception;
  }

  private record Client(Actor owner, TaskCreated paged, TaskCreated appendTarget) {}

  private record WarmUp(int rounds, double jitShare) {}

  /** A task the bench made, deleted as its owner at the end. */
  private record Created(Actor owner, String id) {}

  /** The callers' own NATS connection; replies are decoded on the calling thread. */
  private static final class BenchBus implements AutoCloseable {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final Connection connection;
    private final MessageCodec codec;

    BenchBus(String url, MessageCodec codec) throws IOException, InterruptedException {
      this.connection = Nats.connect(new Options.Builder().server(url).connectionName("task-store-bench").build());
      this.codec = codec;
    }

    <Q, R> R call(Subject<Q, R> subject, Q body, Actor actor) throws Exception {
      Headers headers = ActorHeaders.write(new Headers(), actor, null);
      Message reply = connection.request(NatsMessage.builder().subject(subject.name()).headers(headers)
          .data(codec.encode(body)).build(), DEADLINE);
      if (reply == null) {
        throw new IllegalStateException("no answer on " + subject);
      }
      if (reply.getHeaders() != null && reply.getHeaders().getFirst(MessageHeaders.ERROR) != null) {
        throw new IllegalStateException(subject + " failed: " + new String(reply.getData()));
      }
      return codec.decode(reply.getData(), subject.reply());
    }

    @Override
    public void close() throws InterruptedException {
      connection.close();
    }
  }

  /**
   * The disk's own durability latency while an operation runs: every 10 ms an 8 kB write and an
   * fdatasync on the working tree's filesystem, where the launcher's PostgreSQL keeps its WAL. A
   * create or an append commits with an fsync, so it cannot have a shorter tail than this.
   */
  private static final class DiskProbe implements AutoCloseable {

    private final FileChannel file;
    private final List<Double> latencies = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    DiskProbe() throws IOException {
      Path path = Path.of("target", "bench-disk-probe");
      file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      thread = Thread.ofPlatform().name("disk-probe").start(this::probe);
    }

    private void probe() {
      ByteBuffer block = ByteBuffer.allocate(8192);
      try {
        for (long i = 0; running; i++) {
          long start = System.nanoTime();
          file.write(block.clear(), (i % 128) * 8192);
          file.force(false);
          synchronized (latencies) {
            latencies.add((System.nanoTime() - start) / 1_000_000.0);
          }
          Thread.sleep(10);
        }
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException("disk probe failed", e);
      }
    }

    double[] latencies() throws InterruptedException {
      stop();
      synchronized (latencies) {
        return latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      }
    }

    private void stop() throws InterruptedException {
      running = false;
      thread.join();
    }

    @Override
    public void close() throws IOException, InterruptedException {
      stop();
      file.close();
    }
  }

  /**
   * Latencies of one operation and of the disk probe in the same window (both sorted), and the CPU
   * the whole machine spent per call.
   */
  private record Row(String name, double[] latencies, double[] disk, double cpuMsPerCall) {

    double p(int percentile) {
      return p(latencies, percentile);
    }

    static double p(double[] sorted, int percentile) {
      int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
      return sorted[Math.max(0, Math.min(index, sorted.length - 1))];
    }

    @Override
    public String toString() {
      return name + Arrays.toString(latencies);
    }
  }
}
