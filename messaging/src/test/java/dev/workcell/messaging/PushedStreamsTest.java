package dev.workcell.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.messaging.stream.PushedStreams;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The calling end of pushed streams on a real nats-server: chunks arrive in order from the first
 * one, and a stream whose instance is killed (its connection closed under it, as with kill -9) is
 * reported lost within seconds, while a stream on a live instance, or one already forgotten, is not.
 */
class PushedStreamsTest {

  record Open(String id) {}

  record Opened(String id) {}

  record Chunk(String id, long seq) {}

  static final Actor ALICE = new Actor("alice-id", Actor.Role.USER);
  @AutoClose
  static final BusFixture fixture = new BusFixture(ServiceName.TERMINAL);
  static final Vertx vertx = fixture.vertx;
  static final TestBus caller = fixture.bus;

  @Test
  void aStreamIsLostWhenItsInstanceDiesNotWhileItLivesNorOnceForgotten() throws Exception {
    String prefix = "workcell.sandbox.test-out-" + UUID.randomUUID() + ".";
    var opening = Subject.of("workcell.sandbox.test-open-" + UUID.randomUUID(), Open.class, Opened.class, ServiceName.SANDBOX);
    TestBus sandbox = new TestBus(vertx, ServiceName.SANDBOX.id());
    sandbox.responder.serve(opening, request -> Uni.createFrom().item(() -> {
      String id = request.body().id();
      for (int seq = 0; seq < 3; seq++) { // pushed before the answer: the subscription is already there
        sandbox.connection.connection().publish(prefix + id, sandbox.codec.encode(new Chunk(id, seq)));
      }
      return new Opened(id);
    }));
    sandbox.connection.connection().flush(Duration.ofSeconds(2));
    InstanceWatch watch = new InstanceWatch(caller.connection);
    var streams = new PushedStreams<>("test stream", Chunk.class, id -> prefix + id, caller.connection, caller.requester,
        caller.codec, watch);

    List<Long> seen = new CopyOnWriteArrayList<>();
    CompletableFuture<Long> lost = new CompletableFuture<>();
    CompletableFuture<Long> forgottenLost = new CompletableFuture<>();
    String kept = PushedStreams.newId();
    String forgotten = PushedStreams.newId();
    streams.open(kept, chunk -> seen.add(chunk.seq()), () -> lost.complete(System.nanoTime()), opening, new Open(kept),
        ALICE, Duration.ofSeconds(10)).await().atMost(Duration.ofSeconds(10));
    streams.open(forgotten, chunk -> {}, () -> forgottenLost.complete(System.nanoTime()), opening, new Open(forgotten),
        ALICE, Duration.ofSeconds(10)).await().atMost(Duration.ofSeconds(10));
    assertThat(streams.forget(forgotten)).isTrue();
    assertThat(streams.forget(forgotten)).as("idempotent").isFalse();

    Thread.sleep(2_500); // probed twice meanwhile: a live instance is never taken for dead
    assertThat(seen).containsExactly(0L, 1L, 2L);
    assertThat(lost).isNotDone();
    assertThat(watch.size()).as("one instance watched, for the stream still open").isEqualTo(1);

    long killed = System.nanoTime();
    sandbox.connection.connection().close();

    long lostAfter = TimeUnit.NANOSECONDS.toMillis(lost.get(10, TimeUnit.SECONDS) - killed);
    System.out.printf("stream lost %d ms after its instance's connection closed%n", lostAfter);
    assertThat(lostAfter).isLessThan(5_000);
    Thread.sleep(500);
    assertThat(forgottenLost).as("a forgotten stream is nobody's to report").isNotDone();
    assertThat(watch.size()).isZero();
    assertThat(streams.forget(kept)).isTrue();
  }
}
