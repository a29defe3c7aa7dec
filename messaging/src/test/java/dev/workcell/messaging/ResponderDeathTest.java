package dev.workcell.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Subject;
import io.nats.client.Connection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Decision 0024 on a real nats-server: a request whose responder dies while handling it is answered
 * with the retryable {@code service_unavailable} long before its deadline; a responder that is only
 * slow still answers. The responder plays a service on a connection of its own, closed under it.
 */
class ResponderDeathTest {

  record Work(String text) {}

  record Done(String text) {}

  static final Actor ALICE = new Actor("alice-id", Actor.Role.USER);
  /** Far beyond how long any of these tests may wait: only the watch can answer in time. */
  static final Duration DEADLINE = Duration.ofSeconds(60);
  static final Duration WAIT = Duration.ofSeconds(20);
  @AutoClose
  static final BusFixture fixture = new BusFixture(ServiceName.GATEWAY);
  static final Vertx vertx = fixture.vertx;
  static final TestBus caller = fixture.bus;

  static Subject<Work, Done> subject() {
    return Subject.of("workcell.sandbox.test." + UUID.randomUUID(), Work.class, Done.class, ServiceName.SANDBOX);
  }

  @Test
  void aResponderThatDiesMidRequestIsAnsweredRetryableNotAtTheDeadline() throws Exception {
    var subject = subject();
    CountDownLatch handling = new CountDownLatch(1);
    TestBus responder = new TestBus(vertx, ServiceName.SANDBOX.id());
    responder.responder.serve(subject, request -> {
      handling.countDown();
      return Uni.createFrom().nothing(); // works until it is killed
    });
    subscribed(responder);

    var answer = caller.requester.request(subject, new Work("x"), ALICE, DEADLINE).subscribeAsCompletionStage();
    assertThat(handling.await(10, TimeUnit.SECONDS)).as("the responder took the request").isTrue();
    responder.connection.connection().flush(Duration.ofSeconds(2)); // its accept is on the wire
    long killed = System.nanoTime();
    responder.connection.connection().close(); // its socket goes, as with kill -9

    assertThatThrownBy(() -> answer.get(WAIT.toSeconds(), TimeUnit.SECONDS))
        .hasCauseInstanceOf(WorkcellException.class)
        .satisfies(e -> assertThat(((WorkcellException) e.getCause()).code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE));
    System.out.printf("answered %d ms after the responder's connection closed%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
  }

  @Test
  void aSlowLiveResponderStillAnswersWhileItsInstanceIsProbed() throws Exception {
    var subject = subject();
    try (TestBus responder = new TestBus(vertx, ServiceName.SANDBOX.id())) {
      responder.responder.serve(subject, request ->
          Uni.createFrom().item(new Done(request.body().text())).onItem().delayIt().by(Duration.ofSeconds(4)));
      subscribed(responder);

      Done done = caller.requester.request(subject, new Work("slow"), ALICE, DEADLINE).await().atMost(WAIT);

      assertThat(done.text()).isEqualTo("slow");
    }
  }

  @Test
  void aRequestTheDeadInstanceNeverAcceptedFailsOnceNoInstanceIsLeft() throws Exception {
    var subject = subject();
    try (TestBus responder = new TestBus(vertx, ServiceName.SANDBOX.id())) {
      responder.responder.serve(subject, request -> Uni.createFrom().item(new Done("ok")));
      subscribed(responder);
      // The caller learns that this subject's responders accept.
      assertThat(caller.requester.request(subject, new Work("first"), ALICE).await().atMost(WAIT).text()).isEqualTo("ok");
    }
    // An instance that read the request but died before it could accept it: a bare subscriber.
    Connection reader = io.nats.client.Nats.connect(TestBus.URL);
    CountDownLatch read = new CountDownLatch(1);
    reader.createDispatcher(message -> read.countDown()).subscribe(subject.name(), "sandbox");
    reader.flush(Duration.ofSeconds(2));

    var answer = caller.requester.request(subject, new Work("lost"), ALICE, DEADLINE).subscribeAsCompletionStage();
    assertThat(read.await(10, TimeUnit.SECONDS)).isTrue();
    reader.close();

    assertThatThrownBy(() -> answer.get(WAIT.toSeconds(), TimeUnit.SECONDS))
        .hasCauseInstanceOf(WorkcellException.class)
        .satisfies(e -> assertThat(((WorkcellException) e.getCause()).code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE));
  }

  /** The responder's subscriptions have reached the server (it is another connection than the caller's). */
  static void subscribed(TestBus responder) throws Exception {
    responder.connection.connection().flush(Duration.ofSeconds(2));
  }

  @Test
  void whileNoInstanceIsUpARequestIsRefusedAtOnce() {
    assertThatThrownBy(() -> caller.requester.request(subject(), new Work("x"), ALICE, DEADLINE).await().atMost(WAIT))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE));
  }
}
