package dev.workcell.sandbox.celld.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * The celld streams another service opened over NATS — terminals (terminal-service), port streams
 * (the gateway's /proxy) — by the id the opener chose (a subject token: their output goes out on
 * it, through an {@link OrderedPublisher}). Credit comes back as acks on a push subject (an ack of 0
 * bytes is a keepalive), so at most one window per stream is in flight whatever the far client
 * does; a stream that hears nothing (no request, ack or keepalive) for the idle timeout is closed,
 * so an opener that went away cannot leave them open.
 */
public final class OpenStreams<S extends OpenStreams.Stream> {

  /** What the registry needs of an open stream. */
  public interface Stream {
    Uni<Void> close();

    /** {@code bytes} of output were passed on by the opener. */
    void acknowledge(int bytes);
  }

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{16,64}");

  private final String what;
  private final Duration idleTimeout;
  private final Map<String, Open<S>> open = new ConcurrentHashMap<>();
  private Vertx vertx;
  private long sweeper = -1;

  /** {@code what} names a stream in errors and logs ("terminal session", "port stream"). */
  public OpenStreams(String what, Duration idleTimeout) {
    this.what = what;
    this.idleTimeout = idleTimeout;
  }

  /** At startup: reads acks of type {@code A} on {@code ackSubject} and sweeps out idle streams. */
  public <A> void start(NatsConnection nats, MessageCodec codec, Vertx vertx, String ackSubject, Class<A> ackType,
      Function<A, String> ackId, ToIntFunction<A> ackBytes) {
    nats.whenConnected(connection -> connection.createDispatcher(message -> {
      try {
        A ack = codec.decode(message.getData(), ackType);
        acknowledge(ackId.apply(ack), ackBytes.applyAsInt(ack));
      } catch (RuntimeException e) {
        Log.debugf("%s ack not read: %s", what, e.getMessage());
      }
    }).subscribe(ackSubject));
    this.vertx = vertx;
    sweeper = vertx.setPeriodic(Math.max(1_000, idleTimeout.toMillis() / 4), id -> closeIdle());
  }

  /** At shutdown: closes every stream. */
  public void stop() {
    if (vertx != null) {
      vertx.cancelTimer(sweeper);
    }
    open.values().forEach(entry -> entry.stream.close().subscribe().with(ok -> {}, e -> {}));
  }

  /** Checks a new stream's id before anything is opened: a subject token no open stream holds. */
  public void requireNewId(String id, String field) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, field + " must be 16..64 characters of [A-Za-z0-9_-]");
    }
    if (open.containsKey(id)) {
      throw new WorkcellException(ErrorCode.ALREADY_EXISTS, "a " + what + " with this id is open");
    }
  }

  /**
   * Holds an opened stream until {@code ended} (it ended and all its output was delivered); then
   * forgets it and runs {@code gone} (which publishes the last chunk: by then the stream is no longer
   * open here). A stream that lost a race for its id is closed and refused.
   */
  public <E> void add(String id, S stream, CompletionStage<E> ended, BiConsumer<? super E, ? super Throwable> gone) {
    Open<S> entry = new Open<>(stream);
    if (open.putIfAbsent(id, entry) != null) {
      stream.close().subscribe().with(ok -> {}, e -> {});
      throw new WorkcellException(ErrorCode.ALREADY_EXISTS, "a " + what + " with this id is open");
    }
    ended.whenComplete((end, failure) -> {
      open.remove(id, entry);
      gone.accept(end, failure);
    });
  }

  /** The open stream of a request (which counts as hearing from its opener), else {@code not_found}. */
  public S require(String id) {
    Open<S> entry = id == null ? null : open.get(id);
    if (entry == null) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such " + what);
    }
    entry.heard = System.nanoTime();
    return entry.stream;
  }

  /** The open stream, or null. */
  public S find(String id) {
    Open<S> entry = id == null ? null : open.get(id);
    return entry == null ? null : entry.stream;
  }

  public boolean isOpen(String id) {
    return id != null && open.containsKey(id);
  }

  /** How many streams this instance holds open (tests, metrics). */
  public int size() {
    return open.size();
  }

  private void acknowledge(String id, int bytes) {
    Open<S> entry = id == null ? null : open.get(id);
    if (entry == null) {
      return; // another instance's, or ended
    }
    entry.heard = System.nanoTime();
    if (bytes > 0) {
      entry.stream.acknowledge(bytes);
    }
  }

  private void closeIdle() {
    long now = System.nanoTime();
    open.forEach((id, entry) -> {
      if (now - entry.heard > idleTimeout.toNanos()) {
        Log.infof("%s %s: nothing heard for %s, closing", what, id, idleTimeout);
        entry.stream.close().subscribe().with(ok -> {}, e -> Log.debugf("closing %s %s: %s", what, id, e.getMessage()));
      }
    });
  }

  private static final class Open<S> {
    final S stream;
    volatile long heard = System.nanoTime();

    Open(S stream) {
      this.stream = stream;
    }
  }
}
