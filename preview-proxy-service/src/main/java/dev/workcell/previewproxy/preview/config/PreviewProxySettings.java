package dev.workcell.previewproxy.preview.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The proxy into sandbox previews (WORKCELL_PREVIEW_*). */
@ConfigMapping(prefix = "workcell.preview")
public interface PreviewProxySettings {

  /** The HMAC key shared with the gateway (env WORKCELL_PREVIEW_KEY); without it and a file every link is refused. */
  Optional<String> key();

  /** A file holding the key (env WORKCELL_PREVIEW_KEY_FILE; the launcher's secrets/preview-key). */
  Optional<Path> keyFile();

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

  /** Connections kept to one preview. */
  @WithDefault("16")
  int connectionsPerPreview();

  /** Connect timeout to a preview's published port. */
  @WithDefault("5s")
  Duration connectTimeout();
}
