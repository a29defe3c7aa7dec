package dev.workcell.terminal.sandbox.client;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalChunk;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalClose;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalInput;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalResize;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One terminal in a sandbox, seen from terminal-service: output arrives on the session's subject
 * (in order, {@code seq} checked), input goes out as requests. Input is sent one request at a time
 * and what is typed meanwhile is coalesced into the next one: sandbox-service answers requests on
 * several event loops, so two requests in flight could overtake each other. Output that arrives
 * before a screen is attached waits here; it is at most one credit window, since nothing is
 * acknowledged before it is written.
 */
public final class RemoteTerminal {

  /** Input waiting beyond this pauses the producer (the WebSocket) until it drains. */
  public static final int INPUT_HIGH_WATER = 64 << 10;

  private final String id;
  private final SandboxTerminals client;
  private final CompletableFuture<Integer> ended = new CompletableFuture<>();
  private final ArrayDeque<byte[]> early = new ArrayDeque<>();
  private final ByteArrayOutputStream pendingInput = new ByteArrayOutputStream();
  private TerminalScreen screen;
  private long nextSeq;
  private boolean inputInFlight;
  private Runnable drained;
  private volatile long lastActivity = System.nanoTime();
  private volatile boolean closing;
  volatile long pid;

  RemoteTerminal(String id, SandboxTerminals client) {
    this.id = id;
    this.client = client;
  }

  public String id() {
    return id;
  }

  public long pid() {
    return pid;
  }

  /** Nanos (System.nanoTime) of the last input or output: the idle timeout's clock. */
  public long lastActivity() {
    return lastActivity;
  }

  public boolean isEnded() {
    return ended.isDone();
  }

  /** True once this side asked for the close: an end without an exit code is then no loss. */
  public boolean isClosing() {
    return closing;
  }

  /** Completes with the exit code (-1: lost) when the shell is gone. */
  public CompletionStage<Integer> ended() {
    return ended;
  }

  /** Attaches the screen, handing it what arrived before; at most one screen per terminal. */
  public void attach(TerminalScreen target) {
    byte[][] waiting;
    synchronized (this) {
      if (screen != null) {
        throw new IllegalStateException("terminal " + id + " has a screen");
      }
      screen = target;
      waiting = early.toArray(new byte[0][]);
      early.clear();
    }
    for (byte[] data : waiting) {
      target.output(data);
    }
    ended.thenAccept(target::ended);
  }

  /** Called on the NATS dispatcher thread, in order. */
  void chunk(TerminalChunk chunk) {
    TerminalScreen target;
    synchronized (this) {
      if (chunk.seq() != nextSeq) {
        // A dropped chunk would leave the screen corrupted: end the session instead.
        Log.warnf("terminal %s: output chunk %d arrived, %d expected; closing", id, chunk.seq(), nextSeq);
        nextSeq = -1;
        client.closeQuietly(id);
        end(-1);
        return;
      }
      nextSeq++;
      if (chunk.last()) {
        end(chunk.exitCode());
        return;
      }
      lastActivity = System.nanoTime();
      target = screen;
      if (target == null) {
        early.add(chunk.data());
        return;
      }
    }
    target.output(chunk.data());
  }

  /** The sandbox-service instance that held the session is gone, and the shell with it (celld kills it). */
  void lost() {
    end(-1);
  }

  void end(int exitCode) {
    if (ended.complete(exitCode)) {
      client.forget(this);
    }
  }

  /** {@code bytes} of output reached the client (a WebSocket write completed): credit back to sandbox-service. */
  public void written(int bytes) {
    acknowledge(bytes);
  }

  private void acknowledge(int bytes) {
    client.publishAck(id, bytes);
  }

  /**
   * Keystrokes, in order. Returns false when more than {@link #INPUT_HIGH_WATER} bytes wait: the caller
   * should stop reading until {@code onDrained} runs.
   */
  public boolean input(byte[] keys, Runnable onDrained) {
    if (keys.length == 0 || ended.isDone()) {
      return true;
    }
    lastActivity = System.nanoTime();
    boolean send;
    synchronized (this) {
      pendingInput.writeBytes(keys);
      send = !inputInFlight;
      inputInFlight = true;
      if (pendingInput.size() > INPUT_HIGH_WATER) {
        drained = onDrained;
      }
    }
    if (send) {
      sendPendingInput();
    }
    return drained == null;
  }

  private void sendPendingInput() {
    byte[] batch;
    Runnable resume = null;
    synchronized (this) {
      if (pendingInput.size() == 0 || ended.isDone()) {
        inputInFlight = false;
        resume = drained;
        drained = null;
        batch = null;
      } else {
        byte[] all = pendingInput.toByteArray();
        int size = Math.min(all.length, 65_536);
        batch = java.util.Arrays.copyOf(all, size);
        pendingInput.reset();
        pendingInput.write(all, size, all.length - size);
      }
    }
    if (batch == null) {
      if (resume != null) {
        resume.run();
      }
      return;
    }
    client.call(SandboxSubjects.TERMINAL_INPUT, new TerminalInput(id, batch)).subscribe().with(
        state -> sendPendingInput(),
        failure -> {
          Log.debugf("terminal %s: input failed: %s", id, failure.getMessage());
          sendPendingInput();
        });
  }

  public Uni<Void> resize(int cols, int rows) {
    return client.call(SandboxSubjects.TERMINAL_RESIZE, new TerminalResize(id, cols, rows)).replaceWithVoid();
  }

  /** Kills the shell and everything it started; completes when sandbox-service has done so. */
  public Uni<Void> close() {
    closing = true;
    return client.call(SandboxSubjects.TERMINAL_CLOSE, new TerminalClose(id)).replaceWithVoid()
        .onTermination().invoke(() -> end(ended.isDone() ? ended.join() : -1));
  }
}
