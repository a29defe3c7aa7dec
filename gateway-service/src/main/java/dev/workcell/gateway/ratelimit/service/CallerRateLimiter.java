package dev.workcell.gateway.ratelimit.service;

import dev.workcell.gateway.ratelimit.config.RateLimitSettings;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Token buckets keyed by caller ({@code account:<id>} or {@code address:<ip>}). Memory stays bounded:
 * buckets that have refilled are dropped periodically (a full bucket equals a new one), and past
 * {@code maxTrackedCallers} new callers share one overflow bucket rather than growing the map.
 */
@ApplicationScoped
public class CallerRateLimiter {

  private final RateLimitSettings settings;
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
    this.settings = settings;
    this.clock = clock;
    this.vertx = vertx;
    this.overflow = new TokenBucket(settings.burst(), settings.requestsPerSecond(), clock.getAsLong());
    this.evictionTimer = vertx == null ? -1 : vertx.setPeriodic(settings.evictEvery().toMillis(), id -> evictIdle());
  }

  /** 0 when the request may go ahead; otherwise the whole seconds (at least 1) to wait. */
  public long admit(String caller) {
    if (!settings.enabled()) {
      return 0;
    }
    long now = clock.getAsLong();
    TokenBucket bucket = buckets.get(caller);
    if (bucket == null) {
      if (buckets.size() >= settings.maxTrackedCallers()) {
        evictIdle();
      }
      bucket = buckets.size() >= settings.maxTrackedCallers()
          ? overflow
          : buckets.computeIfAbsent(caller, key -> new TokenBucket(settings.burst(), settings.requestsPerSecond(), now));
    }
    long waitNanos = bucket.take(now);
    return waitNanos == 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toSeconds(waitNanos + 999_999_999L));
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
  void stop() {
    if (evictionTimer >= 0) {
      vertx.cancelTimer(evictionTimer);
    }
  }
}
