package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.runtime.RequestQueueFull;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * celld's socket is reachable by anything in its sandbox: only the launch's token gets a connection
 * taken, the socket disappears once it is, and a celld that stops reading never blocks a caller.
 */
class CelldSocketTest {

  @TempDir
  Path dir;

  @Test
  void strangersAreDroppedAndTheTokenHolderIsTakenThenTheSocketIsGone() throws Exception {
    try (CelldSocket socket = CelldSocket.listen(dir)) {
      Path path = dir.resolve("celld.sock");
      assertThat(Files.getPosixFilePermissions(path)).contains(PosixFilePermission.OTHERS_WRITE);
      String token = new String(socket.tokenLine(), StandardCharsets.US_ASCII).strip();
      CompletableFuture<SocketChannel> accepted = CompletableFuture.supplyAsync(() -> socket.accept(Duration.ofSeconds(10)));

      try (SocketChannel stranger = dial(path)) {
        hello(stranger, "{\"hello\":\"" + "0".repeat(64) + "\"}");
        assertThat(stranger.read(ByteBuffer.allocate(1))).isEqualTo(-1); // dropped
      }
      try (SocketChannel celld = dial(path)) {
        hello(celld, "{\"hello\":\"" + token + "\"}");
        SocketChannel taken = accepted.get(10, TimeUnit.SECONDS);
        taken.write(ByteBuffer.wrap(new byte[] {42}));
        ByteBuffer one = ByteBuffer.allocate(1);
        celld.read(one);
        assertThat(one.get(0)).isEqualTo((byte) 42);
        taken.close();
      }
    }
    assertThat(dir.resolve("celld.sock")).doesNotExist();
  }

  @Test
  void nobodyConnectingIsAClearTimeout() {
    try (CelldSocket socket = CelldSocket.listen(dir)) {
      assertThatThrownBy(() -> socket.accept(Duration.ofMillis(300))).isInstanceOfSatisfying(WorkcellException.class, e -> {
        assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
        assertThat(e.getMessage()).contains("did not connect");
      });
    }
  }

  @Test
  void aPeerThatStopsReadingFailsWritesInsteadOfBlockingThem() throws Exception {
    try (CelldSocket socket = CelldSocket.listen(dir)) {
      String token = new String(socket.tokenLine(), StandardCharsets.US_ASCII).strip();
      CompletableFuture<SocketChannel> accepted = CompletableFuture.supplyAsync(() -> socket.accept(Duration.ofSeconds(10)));
      try (SocketChannel stopped = dial(dir.resolve("celld.sock"))) {
        hello(stopped, "{\"hello\":\"" + token + "\"}");
        Recorder listener = new Recorder();
        RequestQueueBudget budget = new RequestQueueBudget(4 << 20, 64 << 20);
        SocketFrameStream stream = SocketFrameStream.start("t-unit", accepted.get(10, TimeUnit.SECONDS), new IdleExec(), listener,
            budget.share());
        long started = System.nanoTime();
        int written = 0;
        try {
          for (; written < 20; written++) {
            stream.write(new byte[1 << 20]);
          }
        } catch (RequestQueueFull expected) {
          assertThat(expected.getMessage()).contains("celld has not read");
        }
        // 4 MiB queued, plus what the socket buffer took; an 8 MiB frame still fits nowhere now.
        assertThat(written).isBetween(4, 8);
        assertThatThrownBy(() -> stream.write(new byte[8 << 20])).isInstanceOf(RequestQueueFull.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(budget.used()).isBetween(2L << 20, 4L << 20);
        stream.close();
        assertThat(listener.closed.get(5, TimeUnit.SECONDS)).isNull();
        assertThat(budget.used()).isZero();
      }
    }
  }

  private static SocketChannel dial(Path path) throws IOException {
    SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
    channel.connect(UnixDomainSocketAddress.of(path));
    return channel;
  }

  private static void hello(SocketChannel channel, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.US_ASCII);
    channel.write(ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).flip());
  }

  private static final class Recorder implements ExecStream.Listener {
    final CopyOnWriteArrayList<byte[]> chunks = new CopyOnWriteArrayList<>();
    final CompletableFuture<Throwable> closed = new CompletableFuture<>();

    @Override
    public void stdout(byte[] data) {
      chunks.add(data);
    }

    @Override
    public void stderr(byte[] data) {}

    @Override
    public void closed(Throwable cause) {
      closed.complete(cause);
    }
  }

  private static final class IdleExec implements ExecStream {
    volatile boolean open = true;

    @Override
    public void write(byte[] data) {}

    @Override
    public boolean open() {
      return open;
    }

    @Override
    public void close() {
      open = false;
    }
  }
}
