package dev.workcell.gateway.preview.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Signed preview URLs and the hop to preview-proxy behind {@code /api/work/previews/**}. */
@ConfigMapping(prefix = "workcell.preview")
public interface PreviewSettings {

  /** The HMAC key shared with preview-proxy (env WORKCELL_PREVIEW_KEY); without it and a file no preview URL is issued. */
  Optional<String> key();

  /** A file holding the key (env WORKCELL_PREVIEW_KEY_FILE; the launcher's secrets/preview-key). */
  Optional<Path> keyFile();

  /** How long an issued preview URL works (a restart or stop revokes it earlier). */
  @WithDefault("8h")
  Duration urlTtl();

  /** The public origin preview URLs name (env WORKCELL_PREVIEW_PUBLIC_URL); unset: the origin the caller used. */
  Optional<URI> publicUrl();

  /** Where preview-proxy listens; the gateway relays /api/work/previews/** there. */
  @WithDefault("http://127.0.0.1:8484")
  URI proxyUrl();

  /** Connections the gateway keeps to preview-proxy. */
  @WithDefault("64")
  int proxyConnections();
}
