package dev.workcell.sandbox.celld.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The registry terminals and port streams share: ids, races, and the order of forgetting and the last chunk. */
class OpenStreamsTest {

  static final String ID = "abcdefghijklmnop";

  static final class FakeStream implements OpenStreams.Stream {
    final AtomicInteger closed = new AtomicInteger();
    final AtomicInteger acknowledged = new AtomicInteger();

    @Override
    public Uni<Void> close() {
      closed.incrementAndGet();
      return Uni.createFrom().voidItem();
    }

    @Override
    public void acknowledge(int bytes) {
      acknowledged.addAndGet(bytes);
    }
  }

  static void expect(ErrorCode code, Runnable call) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void idsAreSubjectTokensAndNotReusedWhileOpen() {
    OpenStreams<FakeStream> open = new OpenStreams<>("terminal session", Duration.ofMinutes(2));
    expect(ErrorCode.INVALID_ARGUMENT, () -> open.requireNewId("short", "sessionId"));
    expect(ErrorCode.INVALID_ARGUMENT, () -> open.requireNewId("abcdefghijklmnop.>", "sessionId"));
    expect(ErrorCode.INVALID_ARGUMENT, () -> open.requireNewId(null, "sessionId"));
    open.requireNewId(ID, "sessionId");
    FakeStream first = new FakeStream();
    open.add(ID, first, new CompletableFuture<Void>(), (end, failure) -> {});
    expect(ErrorCode.ALREADY_EXISTS, () -> open.requireNewId(ID, "sessionId"));

    FakeStream late = new FakeStream(); // opened meanwhile under the same id: closed, refused
    expect(ErrorCode.ALREADY_EXISTS, () -> open.add(ID, late, new CompletableFuture<Void>(), (end, failure) -> {}));
    assertThat(late.closed).hasValue(1);
    assertThat(open.require(ID)).isSameAs(first);
    assertThat(first.closed).hasValue(0);
    expect(ErrorCode.NOT_FOUND, () -> open.require("unknownunknownunknown"));
    assertThat(open.find("unknownunknownunknown")).isNull();
  }

  @Test
  void anEndedStreamIsForgottenBeforeItsLastChunkGoesOut() {
    OpenStreams<FakeStream> open = new OpenStreams<>("port stream", Duration.ofSeconds(60));
    CompletableFuture<Integer> ended = new CompletableFuture<>();
    AtomicInteger openWhenLast = new AtomicInteger(-1);
    AtomicInteger exitCode = new AtomicInteger();
    open.add(ID, new FakeStream(), ended, (end, failure) -> {
      openWhenLast.set(open.size());
      exitCode.set(end);
    });
    assertThat(open.isOpen(ID)).isTrue();
    ended.complete(7);
    assertThat(openWhenLast).as("a client told 'ended' finds nothing open").hasValue(0);
    assertThat(exitCode).hasValue(7);
    expect(ErrorCode.NOT_FOUND, () -> open.require(ID));
  }
}
