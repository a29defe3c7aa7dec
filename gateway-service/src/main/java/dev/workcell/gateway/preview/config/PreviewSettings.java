package dev.workcell.gateway.preview.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;

/**
 * The hop to preview-proxy behind {@code /api/work/previews/**}. The gateway holds no preview key:
 * preview-proxy issues and checks the signed links (decision 0018).
 */
@ConfigMapping(prefix = "workcell.preview")
public interface PreviewSettings {

  /** Where preview-proxy listens; the gateway relays /api/work/previews/** there. */
  @WithDefault("http://127.0.0.1:8484")
  URI proxyUrl();

  /** Connections the gateway keeps to preview-proxy, per event loop (HttpRelay keeps a client per loop). */
  @WithDefault("64")
  int proxyConnections();
}
