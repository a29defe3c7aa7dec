package dev.workcell.gateway.ratelimit.service;

/**
 * One caller's token bucket ({@code capacity} tokens, one more every {@code 1/perSecond} s), kept
 * as the time the bucket will be full again (the GCRA form): one long, exact integer arithmetic.
 * A take of several tokens needs only one to be there and may overdraw the bucket: a request bigger
 * than the bucket still passes once, and the caller's next one waits until the debt is refilled.
 */
final class TokenBucket {

  private final long intervalNanos;
  private final long capacityNanos;
  private long fullAtNanos;

  TokenBucket(int capacity, double perSecond, long nowNanos) {
    this.intervalNanos = Math.max(1, Math.round(1_000_000_000.0 / perSecond));
    this.capacityNanos = intervalNanos * Math.max(1, capacity);
    this.fullAtNanos = nowNanos;
  }

  /** 0 when {@code tokens} were taken; otherwise the nanoseconds until the bucket holds one. */
  synchronized long take(long nowNanos, long tokens) {
    long wait = waitNanos(nowNanos);
    if (wait > 0) {
      return wait;
    }
    fullAtNanos = Math.max(fullAtNanos, nowNanos) + intervalNanos * Math.max(1, tokens);
    return 0;
  }

  /** 0 when the bucket holds a token now; otherwise the nanoseconds until it does. Takes nothing. */
  synchronized long waitNanos(long nowNanos) {
    return Math.max(0, Math.max(fullAtNanos, nowNanos) + intervalNanos - capacityNanos - nowNanos);
  }

  /** A full bucket behaves exactly like a new one, so dropping it loses nothing. */
  synchronized boolean full(long nowNanos) {
    return fullAtNanos <= nowNanos;
  }
}
