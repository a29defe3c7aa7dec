package dev.workcell.agent.run.service;

import dev.workcell.agent.provider.RoundListener;
import dev.workcell.contracts.run.RunEventType;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Turns a provider's token stream into events: text is gathered and published at most once per
 * window (≈ 32 ms), so a fast model does not cost one stream message per token, and a trailing
 * flush at the end of the window publishes what a pausing model left behind. Reasoning is gathered
 * the same way. {@link #flush()} before anything else is published keeps the order.
 */
public final class DeltaCoalescer implements RoundListener {

  private static final ScheduledExecutorService TRAILING = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("delta-flush").factory());

  /** Characters gathered before a flush regardless of the window: one event stays small however fast the model. */
  static final int MAX_GATHERED_CHARS = 16 * 1024;

  private final RunEventStream events;
  private final long windowNanos;
  private final StringBuilder text = new StringBuilder();
  private final StringBuilder reasoning = new StringBuilder();
  private long lastFlush = System.nanoTime();
  private ScheduledFuture<?> trailing;

  public DeltaCoalescer(RunEventStream events, Duration window) {
    this.events = events;
    this.windowNanos = window.toNanos();
  }

  @Override
  public synchronized void reasoning(String delta) {
    if (!text.isEmpty()) {
      flush();
    }
    reasoning.append(delta);
    maybeFlush();
  }

  @Override
  public synchronized void text(String delta) {
    if (!reasoning.isEmpty()) {
      flush();
    }
    text.append(delta);
    maybeFlush();
  }

  private void maybeFlush() {
    long since = System.nanoTime() - lastFlush;
    if (since >= windowNanos || text.length() + reasoning.length() >= MAX_GATHERED_CHARS) {
      flush();
    } else if (trailing == null) {
      trailing = TRAILING.schedule(this::flush, windowNanos - since, TimeUnit.NANOSECONDS);
    }
  }

  public synchronized void flush() {
    if (trailing != null) {
      trailing.cancel(false);
      trailing = null;
    }
    if (!reasoning.isEmpty()) {
      events.emit(RunEventType.REASONING_DELTA, "text", reasoning.toString());
      reasoning.setLength(0);
    }
    if (!text.isEmpty()) {
      events.emit(RunEventType.ASSISTANT_DELTA, "text", text.toString());
      text.setLength(0);
    }
    lastFlush = System.nanoTime();
  }
}
