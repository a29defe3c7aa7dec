package dev.workcell.sandbox.kubernetes.client;

import dev.workcell.sandbox.runtime.PipedExecStream;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * One exec through the pods/exec subresource: stdin from the shared pipe (bounded like Docker's),
 * stdout and stderr to the listener. The API server relays the stream to the kubelet, which relays it
 * to the container runtime (decision 0016).
 */
final class PodExecStream extends PipedExecStream implements ExecListener {

  private volatile ExecWatch watch;

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
    }
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
