package dev.workcell.mirror.service;

import dev.workcell.mirror.client.Bucket;
import dev.workcell.mirror.config.MirrorOptions;
import dev.workcell.mirror.config.MirrorSettings;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/** Starts the mirror when an S3 endpoint is configured, and publishes its lag, bytes and errors as metrics. */
@ApplicationScoped
public class MirrorLifecycle {

  private final Optional<Mirror> mirror;

  public MirrorLifecycle(MirrorSettings settings, Optional<Bucket> bucket, MeterRegistry registry) {
    Path spool = Path.of(System.getenv().getOrDefault("WORKCELL_STATE", System.getProperty("java.io.tmpdir")), "mirror-spool");
    this.mirror = bucket.map(b -> new Mirror(MirrorOptions.of(settings), b, Clock.systemUTC(), spool));
    mirror.ifPresent(m -> {
      Gauge.builder("workcell_mirror_lag_seconds", m, x -> x.status().lagSeconds()).register(registry);
      Gauge.builder("workcell_mirror_pending_folders", m, x -> x.status().pendingFolders()).register(registry);
      FunctionCounter.builder("workcell_mirror_uploaded_bytes", b(bucket), Bucket::bytesUploaded).register(registry);
      FunctionCounter.builder("workcell_mirror_puts", b(bucket), Bucket::puts).register(registry);
      FunctionCounter.builder("workcell_mirror_errors", m, x -> x.status().errors()).register(registry);
    });
  }

  private static Bucket b(Optional<Bucket> bucket) {
    return bucket.orElseThrow();
  }

  void start(@Observes StartupEvent event) throws IOException {
    if (mirror.isPresent()) {
      mirror.get().start();
      Log.info("mirror started");
    }
  }

  void stop(@Observes ShutdownEvent event) {
    mirror.ifPresent(Mirror::close);
  }

  public Optional<MirrorStatus> status() {
    return mirror.map(Mirror::status);
  }
}
