package dev.workcell.terminal.socket.web;

import dev.workcell.terminal.sandbox.client.RemoteTerminal;
import dev.workcell.terminal.sandbox.client.TerminalScreen;
import io.quarkus.logging.Log;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;

/**
 * Joins a WebSocket to a terminal, both protocols alike (Open Terminal's and the Work terminal's):
 * binary frames are keystrokes, a text frame {@code {"type":"resize","cols","rows"}} resizes, output
 * goes out as binary frames, one write in flight and what arrives meanwhile packed into the next
 * ({@link OutputFrames}). Output credit is returned only when a frame's write completed, so a
 * browser that stops reading stops the program (decision 0017); keystrokes are sent as soon as they
 * are read, never behind output. Input the {@link InputGate} holds waits here with the socket paused
 * (so at most the frames already read wait), and goes in one piece when the gate opens.
 */
public final class TerminalBridge implements TerminalScreen {

  /** The close code of a session whose backing stream is gone (RFC 6455: an unexpected server condition). */
  public static final short LOST = 1011;

  private final ServerWebSocket socket;
  private final RemoteTerminal terminal;
  private final InputGate gate;
  private final Context context;
  private final ByteArrayOutputStream held = new ByteArrayOutputStream();
  private final OutputFrames frames = new OutputFrames();
  private boolean gateWaits;
  private boolean drainWaits;
  private boolean reading = true;

  /** {@code gate}: asked before every input and resize (the Work terminal's access check). */
  private TerminalBridge(ServerWebSocket socket, RemoteTerminal terminal, InputGate gate) {
    this.socket = socket;
    this.terminal = terminal;
    this.gate = gate;
    this.context = Vertx.currentContext();
  }

  /**
   * Starts relaying (on the socket's context); closing the socket closes the terminal (as upstream:
   * the session ends with its socket).
   */
  public static void join(ServerWebSocket socket, RemoteTerminal terminal, InputGate gate) {
    TerminalBridge bridge = new TerminalBridge(socket, terminal, gate);
    socket.binaryMessageHandler(bridge::keys);
    socket.textMessageHandler(bridge::text);
    socket.closeHandler(ignored -> terminal.close().subscribe().with(ok -> {}, e -> Log.debugf("close: %s", e.getMessage())));
    socket.exceptionHandler(e -> Log.debugf("terminal socket: %s", e.getMessage()));
    terminal.attach(bridge);
  }

  private void keys(Buffer keys) {
    held.writeBytes(keys.getBytes());
    release();
  }

  /** Sends what is held if the gate admits it; otherwise the socket waits, paused, for the gate. */
  private void release() {
    if (held.size() == 0 || socket.isClosed()) {
      return;
    }
    gateWaits = !gate.admit(() -> context.runOnContext(v -> release()));
    if (!gateWaits) {
      byte[] keys = held.toByteArray();
      held.reset();
      drainWaits = !terminal.input(keys, () -> context.runOnContext(v -> {
        drainWaits = false;
        flow();
      }));
      gate.sent(); // after the keys went: their check must not delay them
    }
    flow();
  }

  /** Reads from the socket only while neither the gate nor the terminal's input queue holds it back. */
  private void flow() {
    boolean read = !gateWaits && !drainWaits;
    if (read != reading) {
      reading = read;
      if (read) {
        socket.resume();
      } else {
        socket.pause();
      }
    }
  }

  private void text(String text) {
    JsonObject message;
    try {
      message = new JsonObject(text);
    } catch (RuntimeException e) {
      return; // as upstream: an unreadable text frame is ignored
    }
    if ("resize".equals(message.getString("type")) && !gate.closed()) {
      int cols = number(message, "cols", 80);
      int rows = number(message, "rows", 24);
      if (cols >= 1 && cols <= 1000 && rows >= 1 && rows <= 1000) {
        terminal.resize(cols, rows).subscribe().with(ok -> {}, e -> Log.debugf("resize: %s", e.getMessage()));
      }
    }
  }

  private static int number(JsonObject message, String name, int fallback) {
    Object value = message.getValue(name);
    return value instanceof Number n ? n.intValue() : fallback;
  }

  @Override
  public void output(byte[] data) {
    byte[] frame = frames.offer(data);
    if (frame != null) {
      write(frame);
    }
  }

  /** One frame at a time: its credit goes back once written, then what gathered meanwhile goes as one frame. */
  private void write(byte[] frame) {
    if (socket.isClosed()) {
      return; // nothing acknowledged: the terminal is being closed with the socket
    }
    socket.writeBinaryMessage(Buffer.buffer(frame)).onComplete(ar -> {
      if (ar.failed()) {
        return;
      }
      terminal.written(frame.length);
      byte[] next = frames.next();
      if (next != null) {
        write(next);
      }
    });
  }

  @Override
  public void ended(int exitCode) {
    if (!socket.isClosed()) {
      // What still waited goes out before the close, as the shell's last words ("logout").
      frames.rest().forEach(frame -> socket.writeBinaryMessage(Buffer.buffer(frame)));
      // 1011 for a session lost under the shell (sandbox-service or celld gone): the client sees an
      // error, not a normal end, and may open a new terminal once the service is back.
      if (exitCode >= 0) {
        socket.close((short) 1000, "exit " + exitCode);
      } else if (terminal.isClosing()) {
        socket.close((short) 1000, "closed");
      } else {
        socket.close(LOST, "terminal lost: the sandbox's terminal session ended unexpectedly");
      }
    }
  }
}
