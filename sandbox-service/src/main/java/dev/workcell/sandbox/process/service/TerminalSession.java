package dev.workcell.sandbox.process.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.celld.client.CelldConnection;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.celld.client.CreditReturn;
import dev.workcell.sandbox.celld.service.OpenStreams;
import dev.workcell.sandbox.lifecycle.service.SandboxSession;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One open terminal in a sandbox: celld's pty_open request in flight on the sandbox's connection.
 * While it is open it holds the sandbox's lease (a request in flight), so the idle stop leaves the
 * sandbox running and the session counts against the runtime caps; the lease ends with the session.
 *
 * <p>Keystrokes, resizes and the close are their own celld requests, never queued behind output
 * (output flows the other way on the connection), so ^C reaches the terminal however much output
 * is waiting. Output arrives through {@link TerminalOutput}; acknowledgements are batched: a
 * pty_ack goes out once a quarter of the window has been passed on, so celld always keeps at least
 * three quarters of its window of credit while the consumer keeps up.
 */
public final class TerminalSession implements CelldConnection.TerminalSink, OpenStreams.Stream {

  /** celld's output window for each session: what may be in flight unacknowledged, per session. */
  public static final int WINDOW = 1 << 20;
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

  private final SandboxSession lease;
  private final CelldConnection celld;
  private final TerminalOutput output;
  private final CreditReturn credit;
  private final CompletableFuture<Long> started = new CompletableFuture<>();
  private final CompletableFuture<TerminalEnd> ended = new CompletableFuture<>();
  private volatile long id;

  private TerminalSession(SandboxSession lease, TerminalOutput output) {
    this.lease = lease;
    this.celld = lease.celld();
    this.output = output;
    this.credit = new CreditReturn(WINDOW, bytes -> {
      if (!ended.isDone()) {
        celld.send(new CelldRequest.PtyAck(id, bytes));
      }
    });
  }

  /** Sends pty_open on the lease's connection; the Uni completes once the shell runs. */
  static Uni<TerminalSession> open(SandboxSession lease, CelldRequest.PtyOpen request, TerminalOutput output) {
    TerminalSession session = new TerminalSession(lease, output);
    CelldConnection.Sent sent;
    try {
      sent = session.celld.open(request, session);
    } catch (RuntimeException e) {
      lease.close();
      return Uni.createFrom().failure(e);
    }
    session.id = sent.id();
    sent.reply().whenComplete(session::finished);
    return Uni.createFrom().completionStage(session.started.thenApply(pid -> session));
  }

  private void finished(JsonNode result, Throwable failure) {
    lease.close();
    if (failure != null) {
      started.completeExceptionally(failure);
      ended.completeExceptionally(failure);
      return;
    }
    started.completeExceptionally(new WorkcellException(ErrorCode.PROCESS_EXITED, "the terminal ended as it started"));
    ended.complete(new TerminalEnd(result.path("exitCode").asInt(-1), result.path("closed").asBoolean()));
  }

  @Override
  public void started(long pid) {
    started.complete(pid);
  }

  @Override
  public void output(byte[] data) {
    output.output(data);
  }

  /** celld's id of the session (the pty_open request's), unique on its sandbox connection. */
  public long id() {
    return id;
  }

  /** The shell's process id in the sandbox. */
  public long pid() {
    return started.join();
  }

  /** Completes when the shell ended (or was closed) and all its output was delivered. */
  public CompletionStage<TerminalEnd> ended() {
    return ended;
  }

  /** Keystrokes, as bytes (at most 65,536 per call); in order per session. */
  public Uni<Void> input(byte[] keys) {
    if (keys == null || keys.length == 0 || keys.length > 65_536) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "input must be 1..65,536 bytes");
    }
    return call(new CelldRequest.PtyInput(id, keys));
  }

  public Uni<Void> resize(int cols, int rows) {
    if (cols < 1 || cols > 1000 || rows < 1 || rows > 1000) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "cols and rows must be 1..1000");
    }
    return call(new CelldRequest.PtyResize(id, cols, rows));
  }

  /** Kills every process of the session; {@link #ended()} completes once celld has cleaned up. */
  @Override
  public Uni<Void> close() {
    // A session that ended meanwhile is closed as asked: celld no longer knows it (not_found).
    return ended.isDone() ? Uni.createFrom().voidItem() : call(new CelldRequest.PtyClose(id))
        .onFailure(e -> ended.isDone() && e instanceof WorkcellException w && w.code() == ErrorCode.NOT_FOUND).recoverWithNull();
  }

  /** {@code bytes} of output were passed on: credit back to celld, in batches ({@link CreditReturn}). */
  @Override
  public void acknowledge(int bytes) {
    credit.returned(bytes);
  }

  private Uni<Void> call(CelldRequest request) {
    return Uni.createFrom().completionStage(() -> celld.callAsync(request, CALL_TIMEOUT)).replaceWithVoid();
  }
}
