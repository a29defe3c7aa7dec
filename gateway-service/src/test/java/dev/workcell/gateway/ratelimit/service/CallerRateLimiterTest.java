package dev.workcell.gateway.ratelimit.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.gateway.ratelimit.config.RateLimitSettings;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The buckets themselves, on a clock the test moves. */
class CallerRateLimiterTest {

  static final long SECOND = 1_000_000_000L;

  record Settings(double requestsPerSecond, int burst, int maxTrackedCallers) implements RateLimitSettings {
    @Override
    public boolean enabled() {
      return true;
    }

    @Override
    public Duration evictEvery() {
      return Duration.ofSeconds(30);
    }
  }

  final AtomicLong now = new AtomicLong(1_000 * SECOND);

  CallerRateLimiter limiter(double perSecond, int burst, int maxTracked) {
    return new CallerRateLimiter(new Settings(perSecond, burst, maxTracked), null, now::get);
  }

  @Test
  void aBurstPassesThenTheSustainedRateWithAnHonestRetryAfter() {
    CallerRateLimiter limiter = limiter(20, 40, 100);
    for (int i = 0; i < 40; i++) {
      assertThat(limiter.admit("account:a")).isZero();
    }
    assertThat(limiter.admit("account:a")).isEqualTo(1); // 50 ms to the next token, rounded up to a whole second
    now.addAndGet(SECOND / 20);
    assertThat(limiter.admit("account:a")).isZero();
    assertThat(limiter.admit("account:a")).isPositive();
    // 1 s later, 20 more.
    now.addAndGet(SECOND);
    int admitted = 0;
    while (limiter.admit("account:a") == 0) {
      admitted++;
    }
    assertThat(admitted).isEqualTo(20);
  }

  @Test
  void aTakeBiggerThanTheBucketPassesOnceAndTheNextWaitsForTheDebt() {
    CallerRateLimiter limiter = limiter(1000, 100, 100);
    assertThat(limiter.take("terminal:a", 2000)).isZero(); // 2000 from a bucket of 100: passes, owes 1.9 s
    assertThat(limiter.take("terminal:a", 1)).isEqualTo(1_900 * SECOND / 1000 + SECOND / 1000);
    assertThat(limiter.waitFor("terminal:a")).as("asking takes nothing").isEqualTo(1_901 * SECOND / 1000);
    assertThat(limiter.waitFor("terminal:b")).as("an unknown caller has a full bucket").isZero();
    assertThat(limiter.take("terminal:b", 50)).isZero(); // each caller its own bucket
    now.addAndGet(1_901 * SECOND / 1000);
    assertThat(limiter.take("terminal:a", 1)).isZero();
  }

  @Test
  void aSlowRefillTellsTheClientHowLongToWait() {
    CallerRateLimiter limiter = limiter(0.1, 1, 100);
    assertThat(limiter.admit("address:10.0.0.1")).isZero();
    assertThat(limiter.admit("address:10.0.0.1")).isEqualTo(10);
    now.addAndGet(4 * SECOND);
    assertThat(limiter.admit("address:10.0.0.1")).isEqualTo(6);
  }

  @Test
  void refilledBucketsAreEvictedAndTheMapNeverGrowsPastItsBound() {
    CallerRateLimiter limiter = limiter(10, 10, 1_000);
    for (int i = 0; i < 1_000; i++) {
      limiter.admit("address:" + i);
    }
    assertThat(limiter.trackedCallers()).isEqualTo(1_000);
    // Over the bound while every bucket is still in use: newcomers share one overflow bucket.
    for (int i = 0; i < 50; i++) {
      limiter.admit("address:new-" + i);
    }
    assertThat(limiter.trackedCallers()).isEqualTo(1_000);
    assertThat(limiter.admit("address:new-x")).as("the shared overflow bucket is limited too").isPositive();

    // A refilled bucket equals a new one, so idle callers are dropped without changing any answer.
    now.addAndGet(2 * SECOND);
    assertThat(limiter.evictIdle()).isZero();
    assertThat(limiter.admit("address:new-y")).isZero();
    assertThat(limiter.trackedCallers()).isEqualTo(1);
  }
}
