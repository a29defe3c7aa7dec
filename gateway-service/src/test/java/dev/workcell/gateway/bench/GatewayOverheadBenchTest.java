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
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the gateway adds to a read: an authenticated {@code GET /api/work/tasks/{id}} (rate limit,
 * JWT check, fresh account read and task read over NATS sent together, JSON out) against the same
 * task read as one direct NATS request, measured in the same run, interleaved so both see the same
 * machine state.
 */
@QuarkusTest
@Tag("bench")
class GatewayOverheadBenchTest {

  static final int WARMUP = 1_000;
  static final int SAMPLES = 5_000;

  @Inject
  NatsRequester nats;

  @Test
  void gatewayReadAgainstDirectNatsRead() throws Exception {
    TaskView task = FixtureServices.seedTask("u-alice");
    Actor actor = new Actor("u-alice", Actor.Role.USER);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/api/work/tasks/" + task.id()))
        .header("Authorization", "Bearer " + token("u-alice")).build();
    // The floor of any gateway answer: HTTP, rate limit, JWT and the one account read, nothing else.
    HttpRequest me = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/api/auth/me"))
        .header("Authorization", "Bearer " + token("u-alice")).build();

    long[] viaGateway = new long[SAMPLES];
    long[] accountOnly = new long[SAMPLES];
    long[] direct = new long[SAMPLES];
    for (int i = -WARMUP; i < SAMPLES; i++) {
      long gatewayNanos = timed(http, get);
      long accountNanos = timed(http, me);
      long start = System.nanoTime();
      nats.request(TaskSubjects.GET, new TaskRef(task.id()), TaskDetail.class, actor).await().atMost(Duration.ofSeconds(5));
      long directNanos = System.nanoTime() - start;
      if (i >= 0) {
        viaGateway[i] = gatewayNanos;
        accountOnly[i] = accountNanos;
        direct[i] = directNanos;
      }
    }
    Arrays.sort(viaGateway);
    Arrays.sort(accountOnly);
    Arrays.sort(direct);
    String table = String.format("""
        | path | p50 (ms) | p99 (ms) |
        |---|---:|---:|
        | direct NATS request `workcell.task.tasks.get` | %.3f | %.3f |
        | gateway `GET /api/auth/me` (JWT + account read only: the floor) | %.3f | %.3f |
        | gateway `GET /api/work/tasks/{id}` (JWT + account read alongside task read) | %.3f | %.3f |
        | ratio gateway / direct | %.2f | %.2f |
        """, ms(direct, 50), ms(direct, 99), ms(accountOnly, 50), ms(accountOnly, 99), ms(viaGateway, 50), ms(viaGateway, 99),
        ms(viaGateway, 50) / ms(direct, 50), ms(viaGateway, 99) / ms(direct, 99));
    System.out.println(table);
    String target = System.getProperty("bench.results");
    if (target != null && !target.isBlank() && !target.startsWith("${")) {
      Files.writeString(Path.of(target), """
          # gateway-overhead

          %s, %d samples after %d warm-up requests, sequential (one request in flight), fixture
          task-service on a private nats-server (FixtureServices), so the numbers are the gateway's own
          cost (the account is read fresh on every request, concurrently with the task read on a GET),
          not the database's. Run: `bench/gateway-overhead/run.sh`.

          %s""".formatted(Instant.now(), SAMPLES, WARMUP, table));
    }
  }

  private static long timed(HttpClient http, HttpRequest request) throws Exception {
    long start = System.nanoTime();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    long nanos = System.nanoTime() - start;
    if (response.statusCode() != 200) {
      throw new AssertionError("gateway answered " + response.statusCode() + ": " + response.body());
    }
    return nanos;
  }

  private static double ms(long[] sorted, int percentile) {
    int index = Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1);
    return sorted[index] / 1_000_000.0;
  }
}
