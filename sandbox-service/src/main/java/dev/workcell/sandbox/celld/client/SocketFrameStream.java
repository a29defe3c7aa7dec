package dev.workcell.sandbox.celld.client;

import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * celld's frames over its unix socket, with the exec that started celld alongside (its stdin's EOF
 * stops celld, its stderr explains a failure). Requests are written on the caller's thread without
 * blocking: what the socket does not take at once queues for the reader thread to flush, so a celld
 * that stops reading can never stall a caller — nothing in a sandbox may hold our threads. The queue
 * is bounded by the sandbox's {@link RequestQueueBudget.Share}; a celld that reads nothing of it for
 * 30 s is dropped, so a stopped celld gives its share back and the next request starts a new one.
 */
final class SocketFrameStream implements ExecStream {

  private static final long STALL_NANOS = 30_000_000_000L;
  private static final String STALL = "30 s";
  private static final int READ_CHUNK = 64 << 10;

  private final SocketChannel channel;
  private final Selector selector;
  private final ExecStream exec;
  private final Listener listener;
  private final ArrayDeque<ByteBuffer> backlog = new ArrayDeque<>();
  private final RequestQueueBudget.Share share;
  private long lastProgress;
  private final AtomicBoolean ended = new AtomicBoolean();

  private SocketFrameStream(SocketChannel channel, Selector selector, ExecStream exec, Listener listener,
      RequestQueueBudget.Share share) {
    this.channel = channel;
    this.share = share;
    this.selector = selector;
    this.exec = exec;
    this.listener = listener;
  }

  /** Starts reading {@code channel} on a thread of its own; frames go to {@code listener.stdout}. */
  static SocketFrameStream start(String name, SocketChannel channel, ExecStream exec, Listener listener,
      RequestQueueBudget.Share share) throws IOException {
    channel.configureBlocking(false);
    Selector selector = Selector.open();
    channel.register(selector, SelectionKey.OP_READ);
    SocketFrameStream stream = new SocketFrameStream(channel, selector, exec, listener, share);
    Thread.ofPlatform().daemon().name("celld-socket " + name).start(stream::loop);
    return stream;
  }

  @Override
  public void write(byte[] data) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(data);
    synchronized (backlog) {
      if (ended.get()) {
        throw new IOException("celld's socket is closed");
      }
      // Reserved before any byte is written: a refused request must leave no partial frame behind.
      share.take(buffer.remaining());
      if (backlog.isEmpty()) {
        share.give(channel.write(buffer));
        if (!buffer.hasRemaining()) {
          return;
        }
        lastProgress = System.nanoTime();
      }
      backlog.add(buffer);
    }
    selector.wakeup();
  }

  @Override
  public boolean open() {
    return !ended.get() && exec.open();
  }

  @Override
  public void close() {
    end(null);
  }

  private void loop() {
    ByteBuffer in = ByteBuffer.allocate(READ_CHUNK);
    Throwable failure = null;
    try {
      SelectionKey key = channel.keyFor(selector);
      while (!ended.get()) {
        key.interestOps(SelectionKey.OP_READ | (backlogged() ? SelectionKey.OP_WRITE : 0));
        selector.select(1_000);
        selector.selectedKeys().clear();
        requireProgress();
        if (!readAvailable(in)) {
          break;
        }
        flush();
      }
    } catch (IOException | RuntimeException e) {
      failure = e;
    }
    end(failure);
    try {
      selector.close();
    } catch (IOException ignored) {
      // nothing registered any more
    }
  }

  /** Hands over whatever arrived; false at end of stream. */
  private boolean readAvailable(ByteBuffer in) throws IOException {
    int n;
    while ((n = channel.read(in)) > 0) {
      listener.stdout(Arrays.copyOf(in.array(), n));
      in.clear();
    }
    return n == 0;
  }

  private void requireProgress() throws IOException {
    synchronized (backlog) {
      if (!backlog.isEmpty() && System.nanoTime() - lastProgress > STALL_NANOS) {
        throw new IOException("celld read none of its " + share.queued() + " queued request bytes for " + STALL);
      }
    }
  }

  private boolean backlogged() {
    synchronized (backlog) {
      return !backlog.isEmpty();
    }
  }

  private void flush() throws IOException {
    synchronized (backlog) {
      while (!backlog.isEmpty()) {
        ByteBuffer head = backlog.peek();
        int written = channel.write(head);
        if (written > 0) {
          share.give(written);
          lastProgress = System.nanoTime();
        }
        if (head.hasRemaining()) {
          return;
        }
        backlog.poll();
      }
    }
  }

  private void end(Throwable cause) {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    synchronized (backlog) {
      backlog.clear();
      share.giveAll();
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // going away either way
    }
    selector.wakeup();
    exec.close();
    listener.closed(cause);
  }
}
