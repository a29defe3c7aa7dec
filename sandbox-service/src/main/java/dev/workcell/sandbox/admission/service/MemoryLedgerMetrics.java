package dev.workcell.sandbox.admission.service;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The memory ledger in /q/metrics: the budget (0 until the first start asked the engine), the
 * memory limits of running sandboxes, and how much of that idle sandboxes hold (what a start may free).
 */
@ApplicationScoped
public class MemoryLedgerMetrics {

  void register(@Observes StartupEvent event, MeterRegistry registry, RuntimeAdmission admission) {
    Gauge.builder("workcell.sandbox.memory.budget", admission, a -> a.memory(null).budgetBytes()).baseUnit("bytes")
        .description("memory the limits of running sandboxes may add up to").register(registry);
    Gauge.builder("workcell.sandbox.memory.reserved", admission, a -> a.memory(null).reservedBytes()).baseUnit("bytes")
        .description("sum of the memory limits of running (and starting) sandboxes").register(registry);
    Gauge.builder("workcell.sandbox.memory.idle", admission, a -> a.memory(null).idleBytes()).baseUnit("bytes")
        .description("memory limits of idle sandboxes, which a start past the budget may stop").register(registry);
  }
}
