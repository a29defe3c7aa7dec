package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.runtime.StdinPipe;
import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** One attached {@code docker exec}: stdin from a {@link StdinPipe}, stdout/stderr frames to a listener. */
final class DockerExecStream implements ExecStream, ResultCallback<Frame> {

  private final StdinPipe stdin;
  private final Listener listener;
  private static final long HARD_CLOSE_GRACE_SECONDS = 5;

  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile Closeable response;
  private volatile boolean streamEnded;

  DockerExecStream(Listener listener, RequestQueueBudget.Share queue) {
    this.listener = listener;
    this.stdin = new StdinPipe(queue);
  }

  StdinPipe stdin() {
    return stdin;
  }

  @Override
  public void write(byte[] data) throws IOException {
    if (ended.get()) {
      throw new IOException("the exec has ended");
    }
    stdin.write(data);
  }

  @Override
  public boolean open() {
    return !ended.get();
  }

  @Override
  public void onStart(Closeable closeable) {
    response = closeable;
    if (ended.get()) {
      closeQuietly(closeable);
    }
  }

  @Override
  public void onNext(Frame frame) {
    switch (frame.getStreamType()) {
      case STDOUT, RAW -> listener.stdout(frame.getPayload());
      case STDERR -> listener.stderr(frame.getPayload());
      default -> { }
    }
  }

  @Override
  public void onError(Throwable cause) {
    end(cause, false);
  }

  @Override
  public void onComplete() {
    end(null, false);
  }

  @Override
  public void close() {
    end(null, true);
  }

  /**
   * Ends the exec: EOF on celld's stdin makes it clean up and exit, which ends the stream. The hard
   * close (docker-java interrupts its stream thread) comes only after a grace and only if the stream
   * is still open: replies are answered on that thread, and an interrupted thread cannot publish them.
   */
  private void end(Throwable cause, boolean ours) {
    if (ended.compareAndSet(false, true)) {
      stdin.close();
      if (ours) {
        CompletableFuture.delayedExecutor(HARD_CLOSE_GRACE_SECONDS, TimeUnit.SECONDS).execute(() -> {
          Closeable current = response;
          if (current != null && !streamEnded) {
            closeQuietly(current);
          }
        });
      }
      listener.closed(cause);
    }
    if (!ours) {
      streamEnded = true;
    }
  }

  private static void closeQuietly(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException | RuntimeException ignored) {
      // the connection is going away either way
    }
  }
}
