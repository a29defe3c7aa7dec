package dev.workcell.sandbox.kubernetes.client;

import dev.workcell.sandbox.runtime.PipedExecStream;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.quarkus.logging.Log;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One exec through the pods/exec subresource: stdin from the shared pipe (bounded like Docker's),
 * stdout and stderr to the listener. The API server relays the stream to the kubelet, which relays it
 * to the container runtime (decision 0016).
 *
 * <p>No thread waits on an idle exec. fabric8's {@code readingInput} would give every exec a
 * platform thread of its own that polls the pipe's {@code available()} every 50 ms (and, since
 * the pipe never reports bytes available, never sent a byte). Here the exec redirects its input
 * and a write schedules a drain of the queued frames into the WebSocket on a shared executor:
 * a virtual thread that lives only while frames are queued. Output arrives on the client's shared
 * executor.
 */
final class PodExecStream extends PipedExecStream implements ExecListener {

  /** Drains of every exec; one task per exec at most, ending when its queue is empty. */
  private static final ExecutorService DRAINS = Executors.newThreadPerTaskExecutor(
      Thread.ofVirtual().name("k8s-exec-stdin-", 0).factory());

  private final AtomicBoolean draining = new AtomicBoolean();
  private volatile ExecWatch watch;
  /** Set when a send failed: what is still queued is not retried (the stream is ending). */
  private volatile boolean broken;

  PodExecStream(Listener listener, RequestQueueBudget.Share queue) {
    super(listener, queue);
  }

  OutputStream stdout() {
    return new Forwarder(listener::stdout);
  }

  OutputStream stderr() {
    return new Forwarder(listener::stderr);
  }

  void attached(ExecWatch execWatch) {
    watch = execWatch;
    if (streamOver()) {
      execWatch.close();
      return;
    }
    scheduleDrain();
  }

  @Override
  public void write(byte[] data) throws IOException {
    super.write(data);
    scheduleDrain();
  }

  private void scheduleDrain() {
    if (watch != null && !broken && stdin().pending() && draining.compareAndSet(false, true)) {
      DRAINS.execute(this::drain);
    }
  }

  /** Sends what is queued, in order; only one drain of this exec runs at a time. */
  private void drain() {
    try {
      OutputStream input = watch.getInput();
      for (byte[] chunk = stdin().poll(); chunk != null; chunk = stdin().poll()) {
        input.write(chunk);
      }
      input.flush();
    } catch (IOException | RuntimeException e) {
      // The WebSocket is failing; fabric8 reports its end to onFailure/onClose, which ends this stream.
      broken = true;
      stdin().close();
      Log.debugf("exec stdin not sent: %s", e.getMessage());
    } finally {
      draining.set(false);
    }
    scheduleDrain(); // a write that came in after the last poll
  }

  @Override
  public void onFailure(Throwable cause, Response response) {
    streamEnded(cause);
  }

  @Override
  public void onClose(int code, String reason) {
    streamEnded(null);
  }

  @Override
  protected void hardClose() {
    ExecWatch current = watch;
    if (current != null) {
      current.close();
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
