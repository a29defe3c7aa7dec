package dev.workcell.gateway.openterminal.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The Open Terminal–compatible API ({@code /api/open-terminal}). */
@ConfigMapping(prefix = "workcell.terminal")
public interface TerminalSettings {

  /** The bearer key clients send (env WORKCELL_TERMINAL_SERVER_KEY); without it and without a file every call but /health is refused. */
  Optional<String> serverKey();

  /** A file holding the key (env WORKCELL_TERMINAL_SERVER_KEY_FILE); used when {@link #serverKey()} is unset. */
  Optional<Path> serverKeyFile();

  /** How long an unused per-session working directory is remembered (kept in this gateway replica's memory). */
  @WithDefault("1h")
  Duration cwdTtl();

  /** At most this many remembered session directories; the oldest go first. */
  @WithDefault("10000")
  int cwdMaxSessions();

  /** NATS deadline of a file request; the first request of a user may create and start their sandbox. */
  @WithDefault("60s")
  Duration sandboxDeadline();

  /** Largest image read_file hands the model (whole, in memory); larger ones get a 413. /files/view and /files/serve stream any size. */
  @WithDefault("33554432")
  long viewMaxBytes();

  /** Largest total of file bytes one /files/archive zip may hold; beyond it a 413. */
  @WithDefault("67108864")
  long archiveMaxBytes();

  /** Most files one /files/archive may hold. */
  @WithDefault("1000")
  int archiveMaxFiles();

  /**
   * Single-user mode for direct connections (a browser that sends only the key): the user id taken
   * when a request has no X-User-Id. Unset (the default), such a request is refused.
   */
  Optional<String> singleUserId();

  /**
   * Origins allowed to call /api/open-terminal from a browser (CORS), e.g. OpenWebUI's own origin;
   * unset (the default), no CORS headers are sent and preflights are not answered.
   */
  Optional<List<String>> corsOrigins();

  /** Where terminal-service listens (env WORKCELL_TERMINAL_SERVICE_URL): /api/open-terminal/api/terminals/** and /ws/work-terminal are relayed there. */
  @WithDefault("http://127.0.0.1:8485")
  java.net.URI serviceUrl();

  /**
   * Browser origins besides the gateway's own that may open the Work terminal's WebSocket (env
   * WORKCELL_TERMINAL_WORK_ORIGINS, comma-separated). A request with another Origin is refused (403);
   * one without an Origin (not a browser) still needs its ticket.
   */
  Optional<List<String>> workOrigins();
}
