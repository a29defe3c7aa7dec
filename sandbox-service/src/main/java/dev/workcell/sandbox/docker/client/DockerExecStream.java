package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import dev.workcell.sandbox.runtime.PipedExecStream;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import java.io.Closeable;
import java.io.IOException;

/** One attached {@code docker exec}: stdin from a {@link dev.workcell.sandbox.runtime.StdinPipe}, stdout/stderr frames to a listener. */
final class DockerExecStream extends PipedExecStream implements ResultCallback<Frame> {

  private volatile Closeable response;

  DockerExecStream(Listener listener, RequestQueueBudget.Share queue) {
    super(listener, queue);
  }

  @Override
  public void onStart(Closeable closeable) {
    response = closeable;
    if (!open()) {
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
    streamEnded(cause);
  }

  @Override
  public void onComplete() {
    streamEnded(null);
  }

  /** docker-java interrupts its stream thread when the response is closed. */
  @Override
  protected void hardClose() {
    Closeable current = response;
    if (current != null) {
      closeQuietly(current);
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
