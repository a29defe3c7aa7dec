package dev.workcell.mirror.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The mirror of every home and workspace to S3 (WORKCELL_MIRROR_*; docs/mirror.md). */
@ConfigMapping(prefix = "workcell.mirror")
public interface MirrorSettings {

  /** sandbox-service's disk root (decision 0010), read here and never written. */
  @WithDefault("/var/lib/workcell/disks")
  Path diskRoot();

  /** The sandbox-service instance whose volumes are copied (its folder under the disk root). */
  @WithDefault("default")
  String instance();

  /** Files larger than this are skipped and reported. */
  @WithDefault("256M")
  io.quarkus.runtime.configuration.MemorySize maxFileSize();

  /** How long what a sandbox deleted stays under {@code .deleted/<date>/}. */
  @WithDefault("7d")
  Duration retention();

  /** Quiet time after the last change in a folder before it is copied (coalesces a burst of writes). */
  @WithDefault("300ms")
  Duration debounce();

  /** How often the disk root is listed for new and removed volumes (one folder; no tree is read). */
  @WithDefault("5s")
  Duration discoveryInterval();

  /** The safety net: a metadata-only walk of every tree (stat, no reads of unchanged files); 0 turns it off. */
  @WithDefault("24h")
  Duration reconcileInterval();

  /** How often expired {@code .deleted/} days are purged. */
  @WithDefault("1h")
  Duration purgeInterval();

  /** inotify watches (one per folder) this mirror may hold; volumes past it are walked every {@link #unwatchedInterval()}. */
  @WithDefault("100000")
  int maxWatches();

  @WithDefault("60s")
  Duration unwatchedInterval();

  /** Uploads in flight at once. */
  @WithDefault("4")
  int uploadConcurrency();

  /** Retries after an S3 failure wait 1, 2, 4 … up to this. */
  @WithDefault("30s")
  Duration maxBackoff();

  S3 s3();

  /** Any S3-compatible endpoint; without one the mirror is off. */
  interface S3 {
    Optional<String> endpoint();

    @WithDefault("us-east-1")
    String region();

    @WithDefault("workcell-mirror")
    String bucket();

    @WithDefault("true")
    boolean pathStyle();

    Optional<String> accessKey();

    Optional<Path> accessKeyFile();

    Optional<String> secretKey();

    Optional<Path> secretKeyFile();
  }
}
