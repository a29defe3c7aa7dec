package dev.workcell.sandbox.runtime;

import java.io.IOException;

/** The stdin side of a long-lived exec in a sandbox; its output arrives at an {@link ExecStream.Listener}. */
public interface ExecStream extends AutoCloseable {

  /** Queues bytes for the process's stdin (ownership passes: the caller must not change them); fails once closed or backed up. */
  void write(byte[] data) throws IOException;

  boolean open();

  /** Ends the exec: the process sees EOF on stdin and its streams close. Idempotent. */
  @Override
  void close();

  /** Receives the process's output. Calls for one stream arrive in order from a single thread. */
  interface Listener {
    void stdout(byte[] data);

    void stderr(byte[] data);

    /** The exec ended; {@code cause} is null for a clean end of stream. */
    void closed(Throwable cause);
  }
}
