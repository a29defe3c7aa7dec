package dev.workcell.sandbox.celld.client;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.CelldChannels;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The listening end of one celld launch, bound in the sandbox's own socket directory (mounted
 * read-only in the sandbox, so nothing there can plant or swap a file). Anything in the sandbox may
 * connect; only a connection whose first frame carries this launch's one-time token (handed to celld
 * on its exec's stdin) is taken. Then the socket file goes away and nobody else can connect.
 */
final class CelldSocket implements AutoCloseable {

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int MAX_HELLO_BYTES = 256;
  /** Connections that fail the token before the real celld arrives; more means someone is flooding. */
  private static final int MAX_ATTEMPTS = 16;

  private final Path path;
  private final ServerSocketChannel server;
  private final String token;
  private volatile SocketChannel candidate;

  private CelldSocket(Path path, ServerSocketChannel server, String token) {
    this.path = path;
    this.server = server;
    this.token = token;
  }

  static CelldSocket listen(Path dir) {
    Path path = dir.resolve(CelldChannels.SOCKET);
    ServerSocketChannel server = null;
    try {
      Files.deleteIfExists(path);
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(path), 1);
      // celld runs as the sandbox user: it needs write permission on the socket to connect.
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
    } catch (IOException | RuntimeException e) {
      closeQuietly(server);
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "cannot listen for celld at " + path + ": " + e.getMessage(), e);
    }
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    return new CelldSocket(path, server, HexFormat.of().formatHex(secret));
  }

  /** The line celld reads from its stdin before it dials in. */
  byte[] tokenLine() {
    return (token + "\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** celld's connection, once it said the token; {@code service_unavailable} after {@code timeout}. */
  SocketChannel accept(Duration timeout) {
    // Blocking accept and read have no timeout of their own: the alarm closes what they wait on.
    CompletableFuture<Void> alarm = new CompletableFuture<>();
    alarm.completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS).thenRun(() -> {
      closeQuietly(server);
      closeQuietly(candidate);
    });
    try {
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        SocketChannel channel = server.accept();
        candidate = channel;
        if (saysToken(channel)) {
          candidate = null;
          return channel;
        }
        closeQuietly(channel);
      }
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, MAX_ATTEMPTS + " connections to celld's socket failed the token");
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE,
          alarm.isDone() ? "celld did not connect within " + timeout.toSeconds() + " s" : "accepting celld failed: " + e.getMessage(), e);
    } finally {
      alarm.cancel(false);
    }
  }

  /** The first frame must be {@code {"hello":"<token>"}} exactly; anything else is a stranger. */
  private boolean saysToken(SocketChannel channel) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(4);
    if (!readFully(channel, header)) {
      return false;
    }
    int length = header.flip().getInt();
    if (length < 1 || length > MAX_HELLO_BYTES) {
      return false;
    }
    ByteBuffer body = ByteBuffer.allocate(length);
    if (!readFully(channel, body)) {
      return false;
    }
    byte[] expected = ("{\"hello\":\"" + token + "\"}").getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, body.array());
  }

  private static boolean readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        return false;
      }
    }
    return true;
  }

  /** Stops listening and removes the socket file: the accepted connection stays open. */
  @Override
  public void close() {
    closeQuietly(server);
    try {
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // a stale socket file is replaced by the next launch
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    if (closeable != null) {
      try {
        closeable.close();
      } catch (Exception ignored) {
        // closing to give up or to unblock; nothing to add
      }
    }
  }
}
