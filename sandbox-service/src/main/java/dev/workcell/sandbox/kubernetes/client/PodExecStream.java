package dev.workcell.sandbox.kubernetes.client;

import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.runtime.StdinPipe;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One exec through the pods/exec subresource: stdin from a {@link StdinPipe} (bounded like Docker's),
 * stdout and stderr to a listener. The API server relays the stream to the kubelet, which relays it
 * to the container runtime (decision 0016).
 */
final class PodExecStream implements ExecStream, ExecListener {

  private static final long HARD_CLOSE_GRACE_SECONDS = 5;

  private final StdinPipe stdin;
  private final Listener listener;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile ExecWatch watch;
  private volatile boolean streamEnded;

  PodExecStream(Listener listener, RequestQueueBudget.Share queue) {
    this.listener = listener;
    this.stdin = new StdinPipe(queue);
  }

  StdinPipe stdin() {
    return stdin;
  }

  OutputStream stdout() {
    return new Forwarder(listener::stdout);
  }

  OutputStream stderr() {
    return new Forwarder(listener::stderr);
  }

  void attached(ExecWatch execWatch) {
    watch = execWatch;
    if (streamEnded) {
      execWatch.close();
    }
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

  /** EOF on celld's stdin makes it clean up and exit; the WebSocket is closed only if it outlives a grace. */
  @Override
  public void close() {
    if (ended.compareAndSet(false, true)) {
      stdin.close();
      CompletableFuture.delayedExecutor(HARD_CLOSE_GRACE_SECONDS, TimeUnit.SECONDS).execute(() -> {
        ExecWatch current = watch;
        if (current != null && !streamEnded) {
          current.close();
        }
      });
      listener.closed(null);
    }
  }

  @Override
  public void onFailure(Throwable cause, Response response) {
    end(cause);
  }

  @Override
  public void onClose(int code, String reason) {
    end(null);
  }

  private void end(Throwable cause) {
    streamEnded = true;
    if (ended.compareAndSet(false, true)) {
      stdin.close();
      listener.closed(cause);
    }
  }

  /** Hands each chunk the client writes to the listener as a copy of its own. */
  private static final class Forwarder extends OutputStream {
    private final Consumer<byte[]> target;

    Forwarder(Consumer<byte[]> target) {
      this.target = target;
    }

    @Override
    public void write(int b) {
      target.accept(new byte[] {(byte) b});
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (len > 0) {
        target.accept(Arrays.copyOfRange(b, off, off + len));
      }
    }
  }
}
