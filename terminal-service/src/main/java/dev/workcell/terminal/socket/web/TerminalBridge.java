package dev.workcell.terminal.socket.web;

import dev.workcell.terminal.sandbox.client.RemoteTerminal;
import dev.workcell.terminal.sandbox.client.TerminalScreen;
import io.quarkus.logging.Log;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.function.BooleanSupplier;

/**
 * Joins a WebSocket to a terminal, both protocols alike (Open Terminal's and the Work terminal's):
 * binary frames are keystrokes, a text frame {@code {"type":"resize","cols","rows"}} resizes, output
 * goes out as binary frames. Output credit is returned only when a frame's write completed, so a
 * browser that stops reading stops the program (decision 0017); keystrokes are sent as soon as they
 * are read, never behind output.
 */
public final class TerminalBridge implements TerminalScreen {

  private final ServerWebSocket socket;
  private final RemoteTerminal terminal;
  private final BooleanSupplier allowed;

  /** {@code allowed}: checked before every input (the Work terminal's revocation check); false closes. */
  private TerminalBridge(ServerWebSocket socket, RemoteTerminal terminal, BooleanSupplier allowed) {
    this.socket = socket;
    this.terminal = terminal;
    this.allowed = allowed;
  }

  /** Starts relaying; closing the socket closes the terminal (as upstream: the session ends with its socket). */
  public static void join(ServerWebSocket socket, RemoteTerminal terminal, BooleanSupplier allowed) {
    TerminalBridge bridge = new TerminalBridge(socket, terminal, allowed);
    socket.binaryMessageHandler(bridge::keys);
    socket.textMessageHandler(bridge::text);
    socket.closeHandler(ignored -> terminal.close().subscribe().with(ok -> {}, e -> Log.debugf("close: %s", e.getMessage())));
    socket.exceptionHandler(e -> Log.debugf("terminal socket: %s", e.getMessage()));
    terminal.attach(bridge);
  }

  private void keys(Buffer keys) {
    if (!allowed.getAsBoolean()) {
      return;
    }
    if (!terminal.input(keys.getBytes(), socket::resume)) {
      socket.pause();
    }
  }

  private void text(String text) {
    JsonObject message;
    try {
      message = new JsonObject(text);
    } catch (RuntimeException e) {
      return; // as upstream: an unreadable text frame is ignored
    }
    if ("resize".equals(message.getString("type")) && allowed.getAsBoolean()) {
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
  public void output(byte[] data, Runnable written) {
    if (socket.isClosed()) {
      return; // nothing acknowledged: the terminal is being closed with the socket
    }
    socket.writeBinaryMessage(Buffer.buffer(data)).onComplete(ar -> {
      if (ar.succeeded()) {
        written.run();
      }
    });
  }

  @Override
  public void ended(int exitCode) {
    if (!socket.isClosed()) {
      socket.close((short) 1000, exitCode < 0 ? "terminal lost" : "exit " + exitCode);
    }
  }
}
