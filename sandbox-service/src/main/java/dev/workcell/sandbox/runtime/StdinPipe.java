package dev.workcell.sandbox.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The stdin of an attached exec: writers enqueue whole frames; docker-java's copy thread reads them
 * as a stream, the Kubernetes exec drains them with {@link #poll()} (no thread waits on it there).
 * Unlike PipedInputStream it does not die with the writing thread, and what may queue up is bounded
 * by the exec's {@link RequestQueueBudget.Share}.
 */
public final class StdinPipe extends InputStream {

  private static final byte[] EOF = new byte[0];

  private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
  private final RequestQueueBudget.Share share;
  private volatile boolean closed;
  private byte[] current;
  private int position;

  public StdinPipe(RequestQueueBudget.Share share) {
    this.share = share;
  }

  /** Queues {@code data}, which the caller hands over: it must not change it afterwards (no copy is made). */
  public void write(byte[] data) throws IOException {
    if (closed) {
      throw new IOException("stdin is closed");
    }
    share.take(data.length);
    chunks.add(data);
  }

  /**
   * The next whole chunk without waiting, or null when none is queued (or stdin ended); its bytes
   * leave the budget. For a single consumer that never mixes it with {@link #read}.
   */
  public byte[] poll() {
    byte[] next = chunks.peek();
    if (next == null || next == EOF) {
      return null;
    }
    chunks.poll();
    share.give(next.length);
    return next;
  }

  /** Whether a chunk is waiting for {@link #poll()}. */
  public boolean pending() {
    byte[] next = chunks.peek();
    return next != null && next != EOF;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    if (current == null || position == current.length) {
      try {
        current = chunks.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("stdin read interrupted");
      }
      position = 0;
      if (current == EOF) {
        chunks.add(EOF);
        return -1;
      }
    }
    int n = Math.min(length, current.length - position);
    System.arraycopy(current, position, buffer, offset, n);
    position += n;
    share.give(n);
    return n;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      chunks.add(EOF);
      // What is still queued may never be read; a late read gives back nothing more than is held.
      share.giveAll();
    }
  }
}
