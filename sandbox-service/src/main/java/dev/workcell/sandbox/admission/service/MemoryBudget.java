package dev.workcell.sandbox.admission.service;

import dev.workcell.sandbox.config.ResourceQuantities;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxDriver;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.OptionalLong;

/**
 * How much memory the limits of running sandboxes may add up to: {@code workcell.sandbox.memory-budget}
 * when set, else {@code memory-share} of the engine's memory. The engine is asked once: in the
 * background at boot (so usage and metrics show the budget at once, and boot never waits for an
 * engine that is still coming up), else on the first sandbox start.
 */
@ApplicationScoped
public class MemoryBudget {

  private final SandboxDriver driver;
  private final double share;
  private final OptionalLong fixed;
  private volatile long bytes;

  @Inject
  public MemoryBudget(SandboxDriver driver, SandboxSettings settings) {
    this.driver = driver;
    this.share = settings.memoryShare();
    this.fixed = settings.memoryBudget().map(ResourceQuantities::memoryBytes).orElse(OptionalLong.empty());
  }

  void warm(@Observes StartupEvent event) {
    Thread.ofVirtual().name("sandbox-memory-budget").start(() -> {
      try {
        bytes();
      } catch (RuntimeException e) {
        Log.infof("the sandbox memory budget is read on the first start instead: %s", e.getMessage());
      }
    });
  }

  /** A fixed budget (tests of the ledger). */
  MemoryBudget(long bytes) {
    this.driver = null;
    this.share = 1;
    this.fixed = OptionalLong.of(bytes);
    this.bytes = bytes;
  }

  /** The budget in bytes; asks the engine the first time (a failure is the engine's problem, retried next time). */
  public long bytes() {
    long known = bytes;
    if (known == 0) {
      long host = fixed.isPresent() ? 0 : driver.hostResources().memoryBytes();
      known = fixed.isPresent() ? fixed.getAsLong() : (long) (host * share);
      Log.infof("sandbox memory budget: %d MiB (%s)", known >> 20,
          fixed.isPresent() ? "workcell.sandbox.memory-budget" : share + " of the engine's " + (host >> 20) + " MiB");
      bytes = known;
    }
    return known;
  }

  /** The budget if it is known already, else 0 (for reports that must not call the engine). */
  public long known() {
    return bytes;
  }
}
