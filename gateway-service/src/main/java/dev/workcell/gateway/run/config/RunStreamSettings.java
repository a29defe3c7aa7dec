package dev.workcell.gateway.run.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Live run streams (SSE). */
@ConfigMapping(prefix = "workcell.gateway.sse")
public interface RunStreamSettings {

  /** How often an idle stream sends a comment, so proxies keep it open. */
  @WithDefault("15s")
  Duration heartbeat();

  /** Bytes written but not yet flushed to the client above which it counts as behind. */
  @WithDefault("1048576")
  long maxBacklogBytes();

  /** How long a client may stay behind before it is disconnected (it resumes with Last-Event-ID). */
  @WithDefault("15s")
  Duration maxLag();
}
