package dev.workcell.agent.provider.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Ends a provider stream that delivers no bytes for the idle time: closes its body, which wakes the
 * blocked read with an IOException. Bytes are counted as they arrive from the connection (not
 * lines or events), so a long tool-argument line that keeps flowing never trips it.
 */
final class StreamIdleWatch implements AutoCloseable {

  // One timer for every stream of the process: a check is a few instructions.
  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("provider-idle-watch").factory());

  private final long idleNanos;
  private volatile long lastBytes = System.nanoTime();
  private volatile boolean fired;
  private volatile boolean closed;
  private volatile Closeable body;
  private volatile ScheduledFuture<?> check;

  StreamIdleWatch(Duration idle) {
    this.idleNanos = idle.toNanos();
  }

  /** A body subscriber that notes every buffer it receives before handing it on. */
  <T> BodySubscriber<T> counting(BodySubscriber<T> delegate) {
    return new BodySubscriber<>() {
      @Override
      public CompletionStage<T> getBody() {
        return delegate.getBody();
      }

      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        delegate.onSubscribe(subscription);
      }

      @Override
      public void onNext(List<ByteBuffer> buffers) {
        lastBytes = System.nanoTime();
        delegate.onNext(buffers);
      }

      @Override
      public void onError(Throwable failure) {
        delegate.onError(failure);
      }

      @Override
      public void onComplete() {
        delegate.onComplete();
      }
    };
  }

  /** Starts watching once the headers are in; {@code body} is closed when the stream goes quiet. */
  void watch(Closeable body) {
    this.body = body;
    lastBytes = System.nanoTime();
    schedule(idleNanos);
  }

  /** True when this watch ended the stream. */
  boolean fired() {
    return fired;
  }

  @Override
  public void close() {
    closed = true;
    ScheduledFuture<?> pending = check;
    if (pending != null) {
      pending.cancel(false);
    }
  }

  private void schedule(long delayNanos) {
    if (!closed) {
      check = TIMER.schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void check() {
    if (closed) {
      return;
    }
    long quiet = System.nanoTime() - lastBytes;
    if (quiet < idleNanos) {
      schedule(idleNanos - quiet);
      return;
    }
    fired = true;
    try {
      body.close();
    } catch (IOException e) {
      // closing is all that matters: the reader sees the stream end either way
    }
  }

  /** "120 s", or "1500 ms" for a time that is not whole seconds. */
  static String describe(Duration idle) {
    return idle.toMillis() % 1000 == 0 ? idle.toSeconds() + " s" : idle.toMillis() + " ms";
  }
}
