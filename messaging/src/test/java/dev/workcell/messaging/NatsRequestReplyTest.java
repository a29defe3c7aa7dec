package dev.workcell.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.MessageHeaders;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.ErrorReply;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Subject;
import io.nats.client.Message;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Request/reply through a real nats-server: what a caller sees for every outcome of a handler. */
class NatsRequestReplyTest {

  record Echo(String text) {}

  record Echoed(String text, String accountId, String role, String traceparent) {}

  static final Actor ALICE = new Actor("alice-id", Actor.Role.USER);
  @AutoClose
  static final BusFixture fixture = new BusFixture(ServiceName.TASK);
  static final Vertx vertx = fixture.vertx;
  static final TestBus bus = fixture.bus;

  static Subject<Echo, Echoed> subject() {
    return Subject.of("workcell.test.messaging." + UUID.randomUUID(), Echo.class, Echoed.class, ServiceName.TASK);
  }

  static <T> T await(Uni<T> uni) {
    return uni.await().atMost(Duration.ofSeconds(10));
  }

  @Test
  void replyCarriesTheActorAndOneTraceAcrossTheHop() {
    var subject = subject();
    bus.responder.serve(subject, request -> Uni.createFrom().item(new Echoed(
        request.body().text(), request.actor().accountId(), request.actor().role().wire(), request.traceparent())));

    Echoed reply = await(bus.requester.request(subject, new Echo("hi"), ALICE));

    assertThat(reply.text()).isEqualTo("hi");
    assertThat(reply.accountId()).isEqualTo("alice-id");
    assertThat(reply.role()).isEqualTo("user");
    assertThat(TraceParent.isValid(reply.traceparent())).isTrue();
  }

  @Test
  void anInstanceStillStartingIsNotReachedUntilItsStartUpWorkIsDone() {
    NatsResponder starting = new NatsResponder(bus.connection, bus.codec, vertx, TestBus.identity(ServiceName.TASK.id()));
    Runnable poolWarmed = starting.holdStart();
    starting.started(null);
    var subject = subject();
    starting.serve(subject, request -> Uni.createFrom().item(new Echoed(request.body().text(), null, null, null)));

    // Not a late answer after the deadline (504): at once, nobody serves it yet (503, retryable).
    assertThat(starting.serving()).isFalse();
    assertThatThrownBy(() -> await(bus.requester.request(subject, new Echo("early"), ALICE)))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE));

    poolWarmed.run();
    poolWarmed.run(); // a second release is no second start
    assertThat(starting.serving()).isTrue();
    assertThat(await(bus.requester.request(subject, new Echo("late"), ALICE)).text()).isEqualTo("late");
  }

  /** Thread the reply's continuation ran on, for a request made on a Vert.x event loop: "asking" when it was that loop. */
  static String continuationThread(NatsRequester requester, Subject<Echo, Echoed> subject) throws Exception {
    CompletableFuture<String> thread = new CompletableFuture<>();
    vertx.getOrCreateContext().runOnContext(ignored -> {
      Thread asking = Thread.currentThread();
      requester.request(subject, new Echo("x"), ALICE).subscribe().with(
          reply -> thread.complete(Thread.currentThread() == asking ? "asking" : Thread.currentThread().getName()),
          thread::completeExceptionally);
    });
    return thread.get(10, TimeUnit.SECONDS);
  }

  @Test
  void withRepliesOnCallerContextAReplyContinuesOnTheEventLoopThatAskedNotOnTheSharedReplyThread() throws Exception {
    var subject = subject();
    // The reply comes a moment later: one that arrived before the caller had attached its continuation
    // (a race of microseconds, lost once in CI) would run that continuation on the asking thread in either mode.
    bus.responder.serve(subject, request -> Uni.createFrom().item(new Echoed(request.body().text(), null, null, null))
        .onItem().delayIt().by(Duration.ofMillis(200)));
    NatsRequester onCaller = new NatsRequester(bus.connection, bus.codec, TestBus.settings(true), bus.inbox);

    assertThat(continuationThread(onCaller, subject)).isEqualTo("asking");
    // The default: the connection's reply thread, which every reply of the service shares.
    assertThat(continuationThread(bus.requester, subject)).isNotEqualTo("asking");
  }

  @Test
  void aHandlersTypedFailureReachesTheCallerWithItsCode() {
    var subject = subject();
    bus.responder.serve(subject,
        request -> Uni.createFrom().failure(new WorkcellException(ErrorCode.CONFLICT, "changed meanwhile")));

    assertThatThrownBy(() -> await(bus.requester.request(subject, new Echo("x"), ALICE)))
        .isInstanceOfSatisfying(WorkcellException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.CONFLICT);
          assertThat(e.getMessage()).isEqualTo("changed meanwhile");
        });
  }

  @Test
  void anUnexpectedFailureIsInternalAndKeepsItsDetailsInside() {
    var subject = subject();
    bus.responder.serve(subject, request -> {
      throw new IllegalStateException("password=hunter2");
    });

    assertThatThrownBy(() -> await(bus.requester.request(subject, new Echo("x"), ALICE)))
        .isInstanceOfSatisfying(WorkcellException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL);
          assertThat(e.getMessage()).doesNotContain("hunter2");
        });
  }

  @Test
  void nobodyListeningIsServiceUnavailableNotATimeout() {
    assertThatThrownBy(() -> await(bus.requester.request(subject(), new Echo("x"), ALICE, Duration.ofSeconds(8))))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE));
  }

  @Test
  void aSlowHandlerMeetsTheDeadlineAsUpstreamTimeout() {
    var subject = subject();
    bus.responder.serve(subject,
        request -> Uni.createFrom().item(new Echoed("late", null, null, null)).onItem().delayIt().by(Duration.ofSeconds(2)));

    assertThatThrownBy(() -> await(bus.requester.request(subject, new Echo("x"), ALICE, Duration.ofMillis(300))))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_TIMEOUT));
  }

  @Test
  void aMessageWithoutAnActingAccountIsRefused() throws Exception {
    var subject = subject();
    AtomicInteger calls = new AtomicInteger();
    bus.responder.serve(subject, request -> {
      calls.incrementAndGet();
      return Uni.createFrom().item(new Echoed("x", null, null, null));
    });

    Message reply = bus.connection.connection()
        .request(subject.name(), "{\"text\":\"x\"}".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5));

    assertThat(reply.getHeaders().getFirst(MessageHeaders.ERROR)).isEqualTo("unauthenticated");
    assertThat(calls).hasValue(0);
  }

  @Test
  void aMalformedBodyIsAnsweredWithMalformedJson() {
    var subject = subject();
    bus.responder.serve(subject, request -> Uni.createFrom().item(new Echoed("x", null, null, null)));

    var headers = ActorHeaders.write(new io.nats.client.impl.Headers(), ALICE, TraceParent.newRoot());
    Message reply = bus.connection.connection()
        .requestWithTimeout(subject.name(), headers, "{not json".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5))
        .join();

    assertThat(reply.getHeaders().getFirst(MessageHeaders.ERROR)).isEqualTo("malformed_json");
    assertThat(bus.codec.decode(reply.getData(), ErrorReply.class).status()).isEqualTo(400);
  }

  @Test
  void replicasInOneQueueGroupAnswerEachRequestExactlyOnce() throws Exception {
    var subject = subject();
    AtomicInteger calls = new AtomicInteger();
    try (TestBus replica = new TestBus(vertx, ServiceName.TASK.id())) {
      RequestHandler<Echo, Echoed> handler = request -> {
        calls.incrementAndGet();
        return Uni.createFrom().item(new Echoed(request.body().text(), null, null, null));
      };
      bus.responder.serve(subject, handler);
      replica.responder.serve(subject, handler);

      for (int i = 0; i < 50; i++) {
        assertThat(await(bus.requester.request(subject, new Echo("n" + i), ALICE)).text()).isEqualTo("n" + i);
      }
    }
    assertThat(calls).hasValue(50);
  }
}
