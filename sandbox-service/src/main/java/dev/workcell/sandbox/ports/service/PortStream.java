package dev.workcell.sandbox.ports.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.celld.client.CelldConnection;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.celld.client.CreditReturn;
import dev.workcell.sandbox.celld.service.OpenStreams;
import dev.workcell.sandbox.lifecycle.service.SandboxSession;
import dev.workcell.sandbox.process.service.TerminalOutput;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One connection to a port inside a sandbox: celld's tcp_open request in flight (decision 0020).
 * Like a terminal it holds the sandbox's lease while open, its output arrives through
 * {@link TerminalOutput} on the connection's reader thread, and credit goes back in batches; writes
 * are their own requests, answered once the sandbox's kernel took the bytes.
 */
public final class PortStream implements CelldConnection.TerminalSink, OpenStreams.Stream {

  /** celld's output window per stream: what may be in flight unacknowledged. */
  public static final int WINDOW = 256 << 10;
  /** Bytes per write: celld takes at most 256 KiB. */
  public static final int MAX_WRITE = 256 << 10;
  // celld gives a write 30 s to be taken by the server; the reply needs a little more.
  private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(35);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

  private final SandboxSession lease;
  private final CelldConnection celld;
  private final TerminalOutput output;
  private final CompletableFuture<Void> connected = new CompletableFuture<>();
  private final CompletableFuture<Void> ended = new CompletableFuture<>();
  private final CreditReturn credit;
  private volatile long id;

  private PortStream(SandboxSession lease, TerminalOutput output) {
    this.lease = lease;
    this.celld = lease.celld();
    this.output = output;
    this.credit = new CreditReturn(WINDOW, bytes -> {
      if (!ended.isDone()) {
        celld.send(new CelldRequest.TcpAck(id, bytes));
      }
    });
  }

  /** Sends tcp_open on the lease's connection; the Uni completes once connected (or with celld's refusal). */
  static Uni<PortStream> open(SandboxSession lease, int port, TerminalOutput output) {
    PortStream stream = new PortStream(lease, output);
    CelldConnection.Sent sent;
    try {
      sent = stream.celld.open(new CelldRequest.TcpOpen(port, WINDOW), stream);
    } catch (RuntimeException e) {
      lease.close();
      return Uni.createFrom().failure(e);
    }
    stream.id = sent.id();
    sent.reply().whenComplete(stream::finished);
    return Uni.createFrom().completionStage(stream.connected.thenApply(ok -> stream));
  }

  private void finished(JsonNode result, Throwable failure) {
    lease.close();
    connected.completeExceptionally(failure != null ? failure
        : new WorkcellException(ErrorCode.CONNECTION_REFUSED, "the connection ended as it opened"));
    ended.complete(null);
  }

  @Override
  public void started(long pid) {
    connected.complete(null);
  }

  @Override
  public void output(byte[] data) {
    output.output(data);
  }

  /** Completes when the connection ended and all its output was delivered. */
  public CompletionStage<Void> ended() {
    return ended;
  }

  public Uni<Void> write(byte[] data) {
    if (data == null || data.length == 0 || data.length > MAX_WRITE) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "a write must be 1.." + MAX_WRITE + " bytes");
    }
    return Uni.createFrom().completionStage(() -> celld.callAsync(new CelldRequest.TcpWrite(id, data), WRITE_TIMEOUT)).replaceWithVoid();
  }

  /** Closes the connection; {@link #ended()} completes once celld has. */
  @Override
  public Uni<Void> close() {
    return ended.isDone() ? Uni.createFrom().voidItem()
        : Uni.createFrom().completionStage(() -> celld.callAsync(new CelldRequest.TcpClose(id), CALL_TIMEOUT)).replaceWithVoid()
            .onFailure(e -> ended.isDone()).recoverWithNull();
  }

  /** {@code bytes} of output were passed on. */
  @Override
  public void acknowledge(int bytes) {
    credit.returned(bytes);
  }
}
