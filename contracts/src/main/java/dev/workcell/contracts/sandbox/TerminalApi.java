package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.Bulk;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Interactive terminals between terminal-service and sandbox-service (docs/decisions, terminal data
 * path). terminal-service picks the session id (random, a subject token) and listens on the
 * session's output subject before it asks for the open, so no output is missed. Output is
 * credit-flow-controlled: sandbox-service never has more than one window unacknowledged per session.
 */
public final class TerminalApi {

  private TerminalApi() {}

  /** {@code cols}/{@code rows} null: 80x24. The shell starts in {@code /workspace} (task) or the home. */
  public record OpenTerminal(SandboxRef sandbox, String sessionId, Integer cols, Integer rows) {}

  public record TerminalOpened(String sessionId, long pid) {}

  /** Keystrokes, 1..65,536 bytes (base64 in JSON); in order per session. */
  public record TerminalInput(String sessionId, byte[] data) {}

  public record TerminalResize(String sessionId, int cols, int rows) {}

  public record TerminalClose(String sessionId) {}

  /** The reply to input, resize and close: whether the session is still open. */
  public record TerminalState(String sessionId, boolean open) {}

  /**
   * Output, pushed on {@code workcell.sandbox.terminal.output.<sessionId>}. {@code seq} counts chunks
   * from 0, so a gap (core NATS dropped one) is seen and the session closed rather than shown
   * corrupted. The last chunk has no data and the shell's {@code exitCode}. A flood's chunks (from
   * 8 KiB) travel raw after the JSON ({@link Bulk}), not as base64.
   */
  public record TerminalChunk(String sessionId, long seq, @Bulk byte[] data, Integer exitCode) {

    public boolean last() {
      return exitCode != null;
    }
  }

  /**
   * Credit back: {@code bytes} of output were passed on. Also a keepalive ({@code bytes} 0): a session
   * that hears nothing from its terminal-service for the orphan timeout is closed.
   */
  public record TerminalAck(String sessionId, int bytes) {}
}
