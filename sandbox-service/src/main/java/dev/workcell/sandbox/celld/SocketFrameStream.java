package dev.workcell.sandbox.celld;

import dev.workcell.sandbox.runtime.ExecStream;
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
 * blocking: what the socket does not take at once queues (bounded) for the reader thread to flush,
 * so a celld that stops reading can never stall a caller — nothing in a sandbox may hold our threads.
 */
final class SocketFrameStream implements ExecStream {

  /** Requests are at most one 8 MiB frame each; more than this queued means celld is stuck or stopped. */
  private static final long MAX_BACKLOG = 64L << 20;
  private static final int READ_CHUNK = 64 << 10;

  private final SocketChannel channel;
  private final Selector selector;
  private final ExecStream exec;
  private final Listener listener;
  private final ArrayDeque<ByteBuffer> backlog = new ArrayDeque<>();
  private long backlogBytes;
  private final AtomicBoolean ended = new AtomicBoolean();

  private SocketFrameStream(SocketChannel channel, Selector selector, ExecStream exec, Listener listener) {
    this.channel = channel;
    this.selector = selector;
    this.exec = exec;
    this.listener = listener;
  }

  /** Starts reading {@code channel} on a thread of its own; frames go to {@code listener.stdout}. */
  static SocketFrameStream start(String name, SocketChannel channel, ExecStream exec, Listener listener) throws IOException {
    channel.configureBlocking(false);
    Selector selector = Selector.open();
    channel.register(selector, SelectionKey.OP_READ);
    SocketFrameStream stream = new SocketFrameStream(channel, selector, exec, listener);
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
      if (backlog.isEmpty()) {
        channel.write(buffer);
        if (!buffer.hasRemaining()) {
          return;
        }
      }
      if (backlogBytes + buffer.remaining() > MAX_BACKLOG) {
        throw new IOException("celld is not reading its requests (" + MAX_BACKLOG + " bytes queued)");
      }
      backlog.add(buffer);
      backlogBytes += buffer.remaining();
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
        selector.select();
        selector.selectedKeys().clear();
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

  private boolean backlogged() {
    synchronized (backlog) {
      return !backlog.isEmpty();
    }
  }

  private void flush() throws IOException {
    synchronized (backlog) {
      while (!backlog.isEmpty()) {
        ByteBuffer head = backlog.peek();
        backlogBytes -= channel.write(head);
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
      backlogBytes = 0;
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
