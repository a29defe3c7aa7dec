package dev.workcell.gateway.budget.service;

import dev.workcell.gateway.budget.config.BudgetSettings;
import dev.workcell.gateway.ratelimit.service.CallerRateLimiter;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * Paces each user's large request bodies to a sustained byte rate, and all users' together to
 * another. The budget bounds the bytes a user holds at once, but not how often: one user writing
 * 2 MB files back to back kept both cores busy (gateway, NATS, sandbox-service), and another user's
 * small reads waited for a CPU at every hop (p99 40-60 ms; 19 ms with the flood at half its rate).
 * Five users at their own pace did the same (p99 159-305 ms), hence the pace over all of them.
 * Counted in KiB, per budget user key.
 */
@ApplicationScoped
public class BulkPacer {

  /** Bodies smaller than this are never paced: requests, messages and commands stay immediate. */
  public static final long LARGE_BODY = 64 * 1024;
  private static final long UNIT = 1024;

  private static final String EVERYONE = "*";

  private final CallerRateLimiter users;
  private final CallerRateLimiter everyone;

  @Inject
  public BulkPacer(BudgetSettings settings, Vertx vertx) {
    this.users = buckets(settings.bulkBytesPerSecond(), settings.bulkBurstBytes(), vertx);
    this.everyone = buckets(settings.bulkTotalBytesPerSecond(), settings.bulkTotalBurstBytes(), vertx);
  }

  private static CallerRateLimiter buckets(long rate, long burst, Vertx vertx) {
    return new CallerRateLimiter(rate > 0, (int) Math.max(1, burst / UNIT), Math.max(1, rate) / (double) UNIT,
        100_000, Duration.ofSeconds(30), vertx, System::nanoTime);
  }

  /** 0 when {@code user} may send a body of {@code bytes} now (and it is counted); otherwise the nanoseconds to wait. */
  public long take(String user, long bytes) {
    if (bytes < LARGE_BODY) {
      return 0;
    }
    long kib = (bytes + UNIT - 1) / UNIT;
    long own = users.waitFor(user);
    if (own > 0) {
      return own; // a user over its own pace spends nothing of everyone's while it waits
    }
    long all = everyone.take(EVERYONE, kib);
    // Only this user's own bodies in flight race for its bucket; one that loses has been counted in
    // everyone's, and that debt is all the race costs.
    return all > 0 ? all : users.take(user, kib);
  }

  @PreDestroy
  void stop() {
    users.stop();
    everyone.stop();
  }
}
