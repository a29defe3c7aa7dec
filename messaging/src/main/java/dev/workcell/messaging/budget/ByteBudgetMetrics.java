package dev.workcell.messaging.budget;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** The gauges every service's {@link ByteBudget} reports under the same names (docs/limits.md). */
public final class ByteBudgetMetrics {

  private ByteBudgetMetrics() {}

  /** @param holder who holds the content, as the descriptions say it ("the gateway") */
  public static ByteBudget register(ByteBudget budget, MeterRegistry registry, String holder) {
    Gauge.builder("workcell.budget.held", budget, ByteBudget::held).baseUnit("bytes")
        .description("content bytes " + holder + " holds in memory").register(registry);
    Gauge.builder("workcell.budget.available", budget, ByteBudget::available).baseUnit("bytes")
        .description("content bytes " + holder + " may still take").register(registry);
    Gauge.builder("workcell.budget.refused", budget, ByteBudget::refused)
        .description("takes refused with rate_limited since start").register(registry);
    return budget;
  }
}
