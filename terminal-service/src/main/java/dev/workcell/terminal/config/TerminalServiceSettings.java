package dev.workcell.terminal.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** terminal-service's settings: the Open Terminal key and limits, and the Work terminal's. */
@ConfigMapping(prefix = "workcell.terminal")
public interface TerminalServiceSettings {

  /** The Open Terminal key (env WORKCELL_TERMINAL_SERVER_KEY), the gateway's; or a file holding it. */
  Optional<String> serverKey();

  Optional<Path> serverKeyFile();

  /** As the gateway's: the user of a request that names none (single-user direct connections). */
  Optional<String> singleUserId();

  /** Open terminals per Open Terminal user (upstream: 16 per server). */
  @WithDefault("16")
  int maxSessions();

  /** How long an opened Open Terminal session waits for its WebSocket (upstream keeps it until deleted). */
  @WithDefault("1h")
  Duration unattachedTimeout();

  /** The WebSocket's first message (auth) must come within this, as upstream (10 s). */
  @WithDefault("10s")
  Duration authTimeout();

  /** Keepalive to sandbox-service for each open session (its orphan timeout is 2 min). */
  @WithDefault("30s")
  Duration keepalive();

  Work work();

  /** The Work terminal, /ws/work-terminal. */
  interface Work {

    /** WORK_TERMINAL_MAX_SESSIONS_PER_TASK. */
    @WithDefault("${WORK_TERMINAL_MAX_SESSIONS_PER_TASK:2}")
    int maxSessionsPerTask();

    /** WORK_TERMINAL_IDLE_TIMEOUT_MS: no input and no output for this long closes the session. */
    @WithDefault("${WORK_TERMINAL_IDLE_TIMEOUT_MS:900000}")
    long idleTimeoutMs();

    /** How often an open session re-checks account, access and task (besides before every input). */
    @WithDefault("500ms")
    Duration recheckInterval();
  }
}
