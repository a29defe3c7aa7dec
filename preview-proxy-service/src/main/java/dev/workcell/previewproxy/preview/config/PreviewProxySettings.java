package dev.workcell.previewproxy.preview.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The proxy into sandbox previews (WORKCELL_PREVIEW_*). */
@ConfigMapping(prefix = "workcell.preview")
public interface PreviewProxySettings {

  /** The HMAC key (env WORKCELL_PREVIEW_KEY); held by this service alone. Without it and a file no link is issued or accepted. */
  Optional<String> key();

  /** A file holding the key (env WORKCELL_PREVIEW_KEY_FILE; the launcher's secrets/preview-key). */
  Optional<Path> keyFile();

  /** How long an issued link works (env WORKCELL_PREVIEW_URL_TTL; a stop or restart revokes it earlier). */
  @WithDefault("8h")
  Duration urlTtl();

  /**
   * The public origin links name (env WORKCELL_PREVIEW_PUBLIC_URL, e.g. behind a TLS terminator); unset:
   * the origin the gateway saw, or none for a link asked by agent-runner (its path only).
   */
  Optional<URI> publicUrl();

  /**
   * How long the answer "this preview runs with generation N at host:port" is reused. Short, so a
   * stop or restart revokes a link within this time; long enough that a page's burst of asset
   * requests costs one check rather than one per asset.
   */
  @WithDefault("1s")
  Duration checkTtl();

  /** NATS deadline of one check (task-service and sandbox-service). */
  @WithDefault("5s")
  Duration checkDeadline();

  /** Connections kept to one preview, per event loop (HttpRelay keeps a client per loop). */
  @WithDefault("16")
  int connectionsPerPreview();

  /** Connect timeout to a preview's published port. */
  @WithDefault("5s")
  Duration connectTimeout();
}
