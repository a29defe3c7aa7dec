package dev.workcell.gateway.budget.service;

import dev.workcell.gateway.budget.config.BudgetSettings;
import dev.workcell.gateway.ratelimit.service.CallerRateLimiter;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * Paces each user's large request bodies to a sustained byte rate. The budget bounds the bytes a
 * user holds at once, but not how often: one user writing 2 MB files back to back kept both cores
 * busy (gateway, NATS, sandbox-service), and another user's small reads waited for a CPU at every
 * hop (p99 40-60 ms; 19 ms with the flood at half its rate). Counted in KiB, per budget user key.
 */
@ApplicationScoped
public class BulkPacer {

  /** Bodies smaller than this are never paced: requests, messages and commands stay immediate. */
  public static final long LARGE_BODY = 64 * 1024;
  private static final long UNIT = 1024;

  private final CallerRateLimiter buckets;

  @Inject
  public BulkPacer(BudgetSettings settings, Vertx vertx) {
    long rate = settings.bulkBytesPerSecond();
    this.buckets = new CallerRateLimiter(rate > 0, (int) Math.max(1, settings.bulkBurstBytes() / UNIT),
        Math.max(1, rate) / (double) UNIT, 100_000, Duration.ofSeconds(30), vertx, System::nanoTime);
  }

  /** 0 when {@code user} may send a body of {@code bytes} now (and it is counted); otherwise the nanoseconds to wait. */
  public long take(String user, long bytes) {
    return bytes < LARGE_BODY ? 0 : buckets.take(user, (bytes + UNIT - 1) / UNIT);
  }

  @PreDestroy
  void stop() {
    buckets.stop();
  }
}
