package dev.workcell.sandbox.runtime;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An attached exec whose stdin is a {@link StdinPipe}: what Docker's and Kubernetes' exec streams share.
 * Closing it ends stdin first: EOF makes celld clean up and exit, which ends the stream. The hard close
 * of the connection comes only after a grace and only if the stream is still open: replies are
 * answered on the client's stream thread, and a connection cut under it cannot publish them.
 */
public abstract class PipedExecStream implements ExecStream {

  private static final long HARD_CLOSE_GRACE_SECONDS = 5;

  protected final Listener listener;
  private final StdinPipe stdin;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile boolean streamEnded;

  protected PipedExecStream(Listener listener, RequestQueueBudget.Share queue) {
    this.listener = listener;
    this.stdin = new StdinPipe(queue);
  }

  /** What the client reads the process's stdin from. */
  public StdinPipe stdin() {
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
  public void close() {
    end(null, true);
  }

  /** The client saw the stream end: cleanly ({@code cause} null) or not. */
  protected final void streamEnded(Throwable cause) {
    end(cause, false);
  }

  /** Whether the client has seen the stream end. */
  protected final boolean streamOver() {
    return streamEnded;
  }

  /** Cuts the connection; called at most once, a grace after {@link #close()}, if the stream is still open. */
  protected abstract void hardClose();

  private void end(Throwable cause, boolean ours) {
    if (ended.compareAndSet(false, true)) {
      stdin.close();
      if (ours) {
        CompletableFuture.delayedExecutor(HARD_CLOSE_GRACE_SECONDS, TimeUnit.SECONDS).execute(() -> {
          if (!streamEnded) {
            hardClose();
          }
        });
      }
      listener.closed(cause);
    }
    if (!ours) {
      streamEnded = true;
    }
  }
}
