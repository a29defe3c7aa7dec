package dev.workcell.terminal.sandbox.client;

/**
 * Where a terminal's output goes (a WebSocket). {@link #output} must not block: it hands the bytes
 * on, and once they are out (the WebSocket write completed) the screen returns their credit with
 * {@link RemoteTerminal#written(int)} — for several chunks at once if it packed them into one frame.
 * A screen that stops returning credit stops the program.
 */
public interface TerminalScreen {

  void output(byte[] data);

  /** The shell ended ({@code exitCode}) or the session was lost ({@code -1}). Called once. */
  void ended(int exitCode);
}
