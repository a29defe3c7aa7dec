package dev.workcell.mirror.config;

import java.nio.file.Path;
import java.time.Duration;

/** The mirror's settings as plain values (built from {@link MirrorSettings}; tests make their own). */
public record MirrorOptions(Path diskRoot, String instance, long maxFileSize, Duration retention, Duration debounce,
    Duration discoveryInterval, Duration reconcileInterval, Duration purgeInterval, int maxWatches,
    Duration unwatchedInterval, int uploadConcurrency, Duration maxBackoff) {

  public static MirrorOptions of(MirrorSettings s) {
    return new MirrorOptions(s.diskRoot(), s.instance(), s.maxFileSize().asLongValue(), s.retention(), s.debounce(),
        s.discoveryInterval(), s.reconcileInterval(), s.purgeInterval(), s.maxWatches(), s.unwatchedInterval(),
        s.uploadConcurrency(), s.maxBackoff());
  }

  /** The instance's folder: one folder per volume. */
  public Path instanceRoot() {
    return diskRoot().resolve(instance());
  }
}
