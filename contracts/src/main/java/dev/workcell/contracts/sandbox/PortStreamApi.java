package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Open Terminal's {@code /proxy/{port}} between the gateway and sandbox-service (decision 0020): a
 * TCP connection to a port on the loopback of a user's own home sandbox, relayed as a byte stream
 * with the terminal's credit discipline (decision 0017). The gateway picks the stream id (random, a
 * subject token) and listens on the stream's output subject before it asks for the open; it never
 * has more than one window of output unacknowledged per stream.
 */
public final class PortStreamApi {

  private PortStreamApi() {}

  /** Connects to {@code port} (1..65535) on the home's loopback; {@code connection_refused} (502) or {@code timeout} (504) as upstream. */
  public record OpenPortStream(SandboxRef sandbox, String streamId, int port) {}

  /** Bytes for the server, in order, at most 256 KiB (base64 in JSON); the reply comes once the sandbox's kernel took them. */
  public record PortStreamWrite(String streamId, byte[] data) {}

  public record PortStreamClose(String streamId) {}

  /** The reply to open, write and close: whether the stream is still open. */
  public record PortStreamState(String streamId, boolean open) {}

  /**
   * What the server sent, pushed on {@code workcell.sandbox.tcp.out.<streamId>}. {@code seq} counts
   * chunks from 0 (a gap closes the stream); the last chunk has no data and {@code last} set.
   */
  public record PortStreamChunk(String streamId, long seq, byte[] data, boolean last) {}

  /** Credit back: {@code bytes} of output were passed on; 0 is a keepalive. */
  public record PortStreamAck(String streamId, int bytes) {}
}
