package dev.workcell.gateway.bench;

import static dev.workcell.gateway.fixture.FixtureServices.token;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import dev.workcell.messaging.NatsRequester;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.smallrye.jwt.auth.principal.JWTParser;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the gateway adds to a read: an authenticated {@code GET /api/work/tasks/{id}} against the same
 * task read as one direct NATS request, measured in the same run and interleaved so every path sees
 * the same machine state. Rows in between split the cost into layers (HTTP alone, + JWT, + the task
 * read without auth, + the account read), and one HTTP client of the JDK shows what a heavier client
 * adds on its own.
 */
@QuarkusTest
@Tag("bench")
class GatewayOverheadBenchTest {

  static final int WARMUP = Integer.getInteger("bench.warmup", 3_000);
  static final int SAMPLES = Integer.getInteger("bench.samples", 5_000);
  static final String DIRECT = "direct NATS request `workcell.task.tasks.get` (the baseline)";
  static final String GATEWAY = "**gateway `GET /api/work/tasks/{id}`** (JWT + fresh account check + task read)";
  static final String GATEWAY_JDK = "gateway `GET /api/work/tasks/{id}` with the JDK's HttpClient (as earlier runs measured it)";

  @Inject
  NatsRequester nats;

  @Inject
  JWTParser jwt;

  interface Probe {
    void run() throws Exception;
  }

  @Test
  void gatewayReadAgainstDirectNatsRead() throws Exception {
    TaskView task = FixtureServices.seedTask("u-alice");
    Actor actor = new Actor("u-alice", Actor.Role.USER);
    String bearer = token("u-alice");
    String taskPath = "/api/work/tasks/" + task.id();
    String loadBefore = loadAverage();
    try (PlainHttpClient plain = new PlainHttpClient(RestAssured.port)) {
      HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      Map<String, Probe> probes = new LinkedHashMap<>();
      probes.put(DIRECT,
          () -> nats.request(TaskSubjects.GET, new TaskRef(task.id()), actor).await().atMost(Duration.ofSeconds(5)));
      probes.put("HTTP floor: `GET /bench/floor`, constant answer, no auth (test-only endpoint)",
          () -> ok(plain.get("/bench/floor", null)));
      probes.put("HTTP floor with the JDK's `java.net.http.HttpClient` (client cost, for comparison)",
          () -> ok(jdk, "/bench/floor", null));
      probes.put("JWT parse + RS256 verification alone, in process (`JWTParser.parse`, no HTTP)",
          () -> jwt.parse(bearer));
      probes.put("+ rate limit + JWT verification: `GET /api/work/bench/authenticated` (test-only, no NATS)",
          () -> ok(plain.get("/api/work/bench/authenticated", bearer)));
      probes.put("+ the task read, no auth: `GET /bench/tasks/{owner}/{id}` (test-only: HTTP + NATS + JSON)",
          () -> ok(plain.get("/bench/tasks/u-alice/" + task.id(), null)));
      probes.put("gateway `GET /api/auth/me` (JWT + the fresh account read)",
          () -> ok(plain.get("/api/auth/me", bearer)));
      probes.put(GATEWAY,
          () -> ok(plain.get(taskPath, bearer)));
      probes.put(GATEWAY_JDK,
          () -> ok(jdk, taskPath, bearer));

      List<long[]> samples = new ArrayList<>();
      probes.values().forEach(probe -> samples.add(new long[SAMPLES]));
      List<Probe> order = List.copyOf(probes.values());
      for (int i = -WARMUP; i < SAMPLES; i++) {
        for (int p = 0; p < order.size(); p++) {
          long start = System.nanoTime();
          order.get(p).run();
          long nanos = System.nanoTime() - start;
          if (i >= 0) {
            samples.get(p)[i] = nanos;
          }
        }
      }
      samples.forEach(Arrays::sort);

      StringBuilder table = new StringBuilder("| path | p50 (ms) | p90 (ms) | p99 (ms) |\n|---|---:|---:|---:|\n");
      int row = 0;
      for (String name : probes.keySet()) {
        long[] sorted = samples.get(row++);
        table.append(String.format("| %s | %.3f | %.3f | %.3f |%n", name, ms(sorted, 50), ms(sorted, 90), ms(sorted, 99)));
      }
      List<String> names = List.copyOf(probes.keySet());
      double direct = ms(samples.get(names.indexOf(DIRECT)), 50);
      double gateway = ms(samples.get(names.indexOf(GATEWAY)), 50);
      double gatewayJdk = ms(samples.get(names.indexOf(GATEWAY_JDK)), 50);
      table.append(String.format("%n**The gateway adds %.3f ms p50** (gateway p50 − direct p50; ratio %.2f). With the JDK's"
          + " HttpClient: %.3f ms.%n", gateway - direct, gateway / direct, gatewayJdk - direct));
      System.out.println(table);
      write(table.toString(), loadBefore, loadAverage());
    }
  }

  private static void ok(PlainHttpClient.Answer answer) {
    if (answer.status() != 200) {
      throw new AssertionError("gateway answered " + answer.status() + ": " + answer.body());
    }
  }

  private static void ok(HttpClient http, String path, String bearer) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + path));
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError("gateway answered " + response.statusCode() + ": " + response.body());
    }
  }

  /** Replaces the top of the results file; hand-written sections (from the first "## ") stay. */
  private static void write(String table, String loadBefore, String loadAfter) throws Exception {
    String target = System.getProperty("bench.results");
    if (target == null || target.isBlank() || target.startsWith("${")) {
      return;
    }
    Path file = Path.of(target);
    String kept = "";
    if (Files.exists(file)) {
      String old = Files.readString(file);
      int history = old.indexOf("\n## ");
      kept = history < 0 ? "" : old.substring(history);
    }
    Files.writeString(file, """
        # gateway-overhead

        Last run %s: %d samples per path after %d warm-up rounds, one request in flight, the paths
        interleaved; load average (1/5/15 min) %s before, %s after, on %d cores. Fixture task-service
        on a private nats-server (FixtureServices), so the numbers are the gateway's own cost, not the
        database's. HTTP rows use a plain keep-alive HTTP/1.1 client on the calling thread unless they
        say otherwise. Run: `bench/gateway-overhead/run.sh`.

        Sections from the first `##` heading on are written by hand and kept by the next run.

        %s%s""".formatted(Instant.now(), SAMPLES, WARMUP, loadBefore, loadAfter, Runtime.getRuntime().availableProcessors(),
        table, kept));
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " / " + parts[1] + " / " + parts[2];
    } catch (Exception e) {
      return "unknown";
    }
  }

  private static double ms(long[] sorted, int percentile) {
    int index = Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1);
    return sorted[index] / 1_000_000.0;
  }
}
