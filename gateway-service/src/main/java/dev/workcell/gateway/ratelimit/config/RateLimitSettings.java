package dev.workcell.gateway.ratelimit.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Per-caller request rate limits on {@code /api/work/**} and {@code /api/auth/**}. */
@ConfigMapping(prefix = "workcell.gateway.rate-limit")
public interface RateLimitSettings {

  /** Off: every request passes (for a gateway behind a limiter of its own). */
  @WithDefault("true")
  boolean enabled();

  /** Sustained requests per second one account (or, unauthenticated, one client address) may make. */
  @WithDefault("20")
  double requestsPerSecond();

  /** Requests one caller may make at once after being idle. */
  @WithDefault("40")
  int burst();

  /** Callers tracked at most; beyond that, new callers share one bucket until idle ones are evicted. */
  @WithDefault("100000")
  int maxTrackedCallers();

  /** How often buckets that have refilled (and so equal a new one) are dropped. */
  @WithDefault("30s")
  Duration evictEvery();
}
