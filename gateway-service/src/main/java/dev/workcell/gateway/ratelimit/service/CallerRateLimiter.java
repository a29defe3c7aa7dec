package dev.workcell.gateway.ratelimit.service;

import dev.workcell.gateway.ratelimit.config.RateLimitSettings;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Token buckets keyed by caller ({@code account:<id>} or {@code address:<ip>}): requests per second
 * here, and kibibytes of request bodies per second in the gateway's bulk pacing. Memory stays bounded:
 * buckets that have refilled are dropped periodically (a full bucket equals a new one), and past
 * {@code maxTrackedCallers} new callers share one overflow bucket rather than growing the map.
 */
@ApplicationScoped
public class CallerRateLimiter {

  private final boolean enabled;
  private final int burst;
  private final double perSecond;
  private final int maxTrackedCallers;
  private final ConcurrentHashMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();
  private final TokenBucket overflow;
  private final LongSupplier clock;
  private final Vertx vertx;
  private final long evictionTimer;

  @Inject
  public CallerRateLimiter(RateLimitSettings settings, Vertx vertx) {
    this(settings, vertx, System::nanoTime);
  }

  CallerRateLimiter(RateLimitSettings settings, Vertx vertx, LongSupplier clock) {
    this(settings.enabled(), settings.burst(), settings.requestsPerSecond(), settings.maxTrackedCallers(),
        settings.evictEvery(), vertx, clock);
  }

  /** Buckets of {@code burst} tokens refilled at {@code perSecond}; not enabled: every take passes. */
  public CallerRateLimiter(boolean enabled, int burst, double perSecond, int maxTrackedCallers, Duration evictEvery,
      Vertx vertx, LongSupplier clock) {
    this.enabled = enabled;
    this.burst = burst;
    this.perSecond = perSecond;
    this.maxTrackedCallers = maxTrackedCallers;
    this.clock = clock;
    this.vertx = vertx;
    this.overflow = new TokenBucket(burst, perSecond, clock.getAsLong());
    this.evictionTimer = vertx == null ? -1 : vertx.setPeriodic(evictEvery.toMillis(), id -> evictIdle());
  }

  /** 0 when the request may go ahead; otherwise the whole seconds (at least 1) to wait. */
  public long admit(String caller) {
    long waitNanos = take(caller, 1);
    return waitNanos == 0 ? 0 : retryAfterSeconds(waitNanos);
  }

  /** A wait as the whole seconds (at least 1) a Retry-After tells the client. */
  public static long retryAfterSeconds(long waitNanos) {
    return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(waitNanos + 999_999_999L));
  }

  /** 0 when {@code tokens} were taken from the caller's bucket (see {@link TokenBucket}); otherwise the nanoseconds to wait. */
  public long take(String caller, long tokens) {
    if (!enabled) {
      return 0;
    }
    long now = clock.getAsLong();
    TokenBucket bucket = buckets.get(caller);
    if (bucket == null) {
      if (buckets.size() >= maxTrackedCallers) {
        evictIdle();
      }
      bucket = buckets.size() >= maxTrackedCallers
          ? overflow
          : buckets.computeIfAbsent(caller, key -> new TokenBucket(burst, perSecond, now));
    }
    return bucket.take(now, tokens);
  }

  /** 0 when the caller's bucket holds a token now; otherwise the nanoseconds until it does. Takes nothing. */
  public long waitFor(String caller) {
    TokenBucket bucket = enabled ? buckets.get(caller) : null;
    return bucket == null ? 0 : bucket.waitNanos(clock.getAsLong());
  }

  /** Drops every bucket that has refilled; returns how many callers remain tracked. */
  public int evictIdle() {
    long now = clock.getAsLong();
    buckets.values().removeIf(bucket -> bucket.full(now));
    return buckets.size();
  }

  public int trackedCallers() {
    return buckets.size();
  }

  @PreDestroy
  public void stop() {
    if (evictionTimer >= 0) {
      vertx.cancelTimer(evictionTimer);
    }
  }
}
