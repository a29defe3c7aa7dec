package dev.workcell.terminal.sandbox.client;

/**
 * Where a terminal's output goes (a WebSocket). {@link #output} must not block: it hands the bytes
 * on and calls {@code written} once they are out (the WebSocket write completed), which returns the
 * credit to sandbox-service. A screen that stops calling {@code written} stops the program.
 */
public interface TerminalScreen {

  void output(byte[] data, Runnable written);

  /** The shell ended ({@code exitCode}) or the session was lost ({@code -1}). Called once. */
  void ended(int exitCode);
}
