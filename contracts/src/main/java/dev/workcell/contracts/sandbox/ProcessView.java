package dev.workcell.contracts.sandbox;

import java.util.List;

/**
 * A background process. {@code status}: running, done or killed; {@code exitCode} null while running.
 * {@code output} holds the requested entries (each a chunk of one stream, in production order),
 * {@code nextOffset} the offset to poll from next; {@code truncated} when entries were left out
 * (tail, or the oldest output dropped to keep the process within its output bound).
 */
public record ProcessView(String id, String command, String status, Integer exitCode, List<OutputEntry> output,
    long nextOffset, boolean truncated, long startedAtMs, Long endedAtMs) {

  /** {@code type}: stdout or stderr; output for a process on a terminal (both streams merged). */
  public record OutputEntry(String type, String data) {}
}
