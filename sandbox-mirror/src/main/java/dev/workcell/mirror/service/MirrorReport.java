package dev.workcell.mirror.service;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** What an operator asks of the mirror: errors, the last one, and what was skipped (the last 20). */
public final class MirrorReport {

  /** A skipped file and why. */
  public record Skipped(String key, String reason, Instant at) {}

  private static final int KEEP = 20;
  private final Clock clock;
  private final AtomicLong errors = new AtomicLong();
  private final AtomicLong links = new AtomicLong();
  private final AtomicLong specials = new AtomicLong();
  private final AtomicLong oversized = new AtomicLong();
  private final Deque<Skipped> skipped = new ArrayDeque<>();
  private volatile String lastError;
  private volatile Instant lastErrorAt;

  MirrorReport(Clock clock) {
    this.clock = clock;
  }

  void error(String what) {
    errors.incrementAndGet();
    lastError = what;
    lastErrorAt = clock.instant();
  }

  synchronized void skipped(String key, String reason) {
    oversized.incrementAndGet();
    skipped.addFirst(new Skipped(key, reason, clock.instant()));
    while (skipped.size() > KEEP) {
      skipped.removeLast();
    }
  }

  void skippedLink() {
    links.incrementAndGet();
  }

  void skippedSpecial() {
    specials.incrementAndGet();
  }

  public long errors() {
    return errors.get();
  }

  public long linksSkipped() {
    return links.get();
  }

  public long specialsSkipped() {
    return specials.get();
  }

  public long oversizedSkipped() {
    return oversized.get();
  }

  public synchronized List<Skipped> recentSkips() {
    return List.copyOf(skipped);
  }

  public String lastError() {
    return lastError;
  }

  public Instant lastErrorAt() {
    return lastErrorAt;
  }
}
