package dev.workcell.terminal.socket.web;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs a terminal's output into WebSocket frames with one write in flight per socket: a chunk that
 * finds no write in flight goes out at once (an echo is never held back, no timer); chunks that
 * arrive while a write is in flight wait and go out together as the next frame. Under a flood, where
 * the pseudo-terminal hands out a few KiB per read, that turns many small messages into few large
 * frames — fewer writes and flushes here and in the gateway's relay, and one credit return per frame
 * instead of one per chunk. What waits is bounded by the credit window (nothing is acknowledged
 * before it is written). Thread-safe: chunks arrive on the NATS dispatcher, completions on the
 * socket's event loop.
 */
final class OutputFrames {

  /** The largest frame: the gateway relays through Vert.x's WebSocket client, which takes frames up to 64 KiB. */
  static final int MAX_FRAME = 64 << 10;

  private final ArrayDeque<byte[]> waiting = new ArrayDeque<>();
  private boolean inFlight;

  /** A chunk arrived: the frame to write now, or null when it waits for the write in flight. */
  synchronized byte[] offer(byte[] chunk) {
    if (inFlight) {
      waiting.add(chunk);
      return null;
    }
    inFlight = true;
    return chunk;
  }

  /** The frame in flight was written: the next frame (what waited, packed up to MAX_FRAME), or null. */
  synchronized byte[] next() {
    if (waiting.isEmpty()) {
      inFlight = false;
      return null;
    }
    return pack();
  }

  /**
   * The output ended: every frame still waiting, to be written at once behind the one in flight (the
   * socket's close then follows the last of them). Nothing is offered after this.
   */
  synchronized List<byte[]> rest() {
    List<byte[]> frames = new ArrayList<>();
    while (!waiting.isEmpty()) {
      frames.add(pack());
    }
    inFlight = true; // a completion still to come finds nothing and writes nothing
    return frames;
  }

  private byte[] pack() {
    int size = 0;
    int count = 0;
    for (byte[] chunk : waiting) {
      if (count > 0 && size + chunk.length > MAX_FRAME) {
        break;
      }
      size += chunk.length;
      count++;
    }
    if (count == 1) {
      return waiting.poll(); // as it came, no copy
    }
    byte[] frame = new byte[size];
    int at = 0;
    for (int i = 0; i < count; i++) {
      byte[] chunk = waiting.poll();
      System.arraycopy(chunk, 0, frame, at, chunk.length);
      at += chunk.length;
    }
    return frame;
  }
}
