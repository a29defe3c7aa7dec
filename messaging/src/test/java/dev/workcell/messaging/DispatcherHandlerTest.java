package dev.workcell.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Subject;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * {@link NatsResponder#serveOnDispatcher}: the handler runs where NATS delivered the request (no hop
 * to an event loop, so no Vert.x context), and callers see the same answers and codes as with serve.
 */
class DispatcherHandlerTest {

  record Keys(String text) {}

  record Taken(String text, boolean onEventLoopContext, String thread) {}

  static final Actor SERVICE = Actor.service(ServiceName.TERMINAL);
  @AutoClose
  static final BusFixture fixture = new BusFixture(ServiceName.SANDBOX);
  static final Vertx vertx = fixture.vertx;
  static final TestBus bus = fixture.bus;

  static Subject<Keys, Taken> subject() {
    return Subject.of("workcell.test.dispatcher." + UUID.randomUUID(), Keys.class, Taken.class, ServiceName.SANDBOX);
  }

  @Test
  void aHandlerOnTheDispatcherAnswersWithoutAnEventLoop() {
    var inline = subject();
    bus.responder.serveOnDispatcher(inline, r -> Uni.createFrom().item(
        new Taken(r.body().text(), Vertx.currentContext() != null, Thread.currentThread().getName())));
    var hopped = subject();
    bus.responder.serve(hopped, r -> Uni.createFrom().item(
        new Taken(r.body().text(), Vertx.currentContext() != null, Thread.currentThread().getName())));

    Taken direct = bus.requester.request(inline, new Keys("ls\r"), SERVICE).await().atMost(Duration.ofSeconds(10));
    Taken viaLoop = bus.requester.request(hopped, new Keys("ls\r"), SERVICE).await().atMost(Duration.ofSeconds(10));

    assertThat(direct.text()).isEqualTo("ls\r");
    assertThat(direct.onEventLoopContext()).as("ran on %s", direct.thread()).isFalse();
    assertThat(viaLoop.onEventLoopContext()).as("serve still hops, ran on %s", viaLoop.thread()).isTrue();
  }

  @Test
  void anAnswerCompletedLaterOnAnotherThreadAndAFailureKeepTheirMeaning() {
    var later = subject();
    CompletableFuture<Taken> pending = new CompletableFuture<>();
    bus.responder.serveOnDispatcher(later, r -> Uni.createFrom().completionStage(pending));
    var refused = subject();
    bus.responder.serveOnDispatcher(refused, r -> {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such terminal session");
    });

    var answer = bus.requester.request(later, new Keys("x"), SERVICE).subscribeAsCompletionStage();
    new Thread(() -> pending.complete(new Taken("done", false, "celld reader"))).start();

    assertThat(answer.join().text()).isEqualTo("done");
    assertThatThrownBy(() -> bus.requester.request(refused, new Keys("x"), SERVICE).await().atMost(Duration.ofSeconds(10)))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
  }
}
