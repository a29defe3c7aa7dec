package dev.workcell.sandbox.lifecycle.service;

import dev.workcell.contracts.sandbox.DiskUsage;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxInstance;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Disk use of every running sandbox as Prometheus gauges ({@code /q/metrics}):
 * {@code workcell_sandbox_disk_used_bytes} and {@code workcell_sandbox_disk_size_bytes}, tagged with
 * the volume and its kind (task or home). Measured once a minute (one {@code stat -f} exec per running
 * sandbox); a sandbox that stops loses its gauges at the next sweep. Unbounded volumes have none.
 */
@ApplicationScoped
public class WorkspaceDiskMetrics {

  private static final long PERIOD_SECONDS = 60;

  private final SandboxDriver driver;
  private final MeterRegistry registry;
  private final String deployment;
  private final Map<String, DiskUsage> current = new ConcurrentHashMap<>();
  private final Map<String, List<Meter>> meters = new HashMap<>();
  private ScheduledExecutorService scheduler;

  public WorkspaceDiskMetrics(SandboxDriver driver, MeterRegistry registry, SandboxSettings settings) {
    this.driver = driver;
    this.registry = registry;
    this.deployment = settings.instance();
  }

  void start(@Observes StartupEvent event) {
    scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("sandbox-disk-metrics").factory());
    scheduler.scheduleWithFixedDelay(this::sweepQuietly, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
  }

  void stop(@Observes ShutdownEvent event) {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      Log.debugf("disk metrics sweep failed: %s", e.getMessage());
    }
  }

  /** Measures every running sandbox now and returns how many have gauges. */
  public synchronized int sweep() {
    Map<String, DiskUsage> seen = new HashMap<>();
    Map<String, String> kinds = new HashMap<>();
    for (SandboxInstance instance : driver.listManaged()) {
      if (!instance.running() || instance.key() == null) {
        continue;
      }
      Optional<DiskUsage> usage = driver.diskUsage(instance.key(), Optional.of(instance));
      if (usage.isPresent() && usage.get().bounded() && usage.get().usedBytes() != null) {
        String volume = instance.key().volume(deployment);
        seen.put(volume, usage.get());
        kinds.put(volume, instance.home() ? "home" : "task");
      }
    }
    current.putAll(seen);
    for (String volume : List.copyOf(meters.keySet())) {
      if (!seen.containsKey(volume)) {
        meters.remove(volume).forEach(registry::remove);
        current.remove(volume);
      }
    }
    seen.forEach((volume, usage) -> meters.computeIfAbsent(volume, v -> register(v, kinds.get(v))));
    return meters.size();
  }

  private List<Meter> register(String volume, String kind) {
    Tags tags = Tags.of("volume", volume, "kind", kind);
    return List.of(
        Gauge.builder("workcell.sandbox.disk.used", current, m -> value(m.get(volume), true)).tags(tags).baseUnit("bytes")
            .description("Bytes used on a running sandbox's workspace disk").strongReference(true).register(registry),
        Gauge.builder("workcell.sandbox.disk.size", current, m -> value(m.get(volume), false)).tags(tags).baseUnit("bytes")
            .description("Size of a running sandbox's workspace disk").strongReference(true).register(registry));
  }

  private static double value(DiskUsage usage, boolean used) {
    if (usage == null) {
      return Double.NaN;
    }
    Long bytes = used ? usage.usedBytes() : usage.sizeBytes();
    return bytes == null ? Double.NaN : bytes;
  }
}
