package dev.workcell.gateway.budget.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * The gateway's budget of content bytes in memory (request bodies, file answers, command output,
 * message pages), see {@code docs/limits.md}.
 */
@ConfigMapping(prefix = "workcell.gateway.budget")
public interface BudgetSettings {

  /** Bytes of content the gateway holds at once; unset: a quarter of the maximum heap. */
  Optional<Long> bytes();

  /** Bytes one user (a Work account, an Open Terminal user) holds at once; unset: a quarter of {@link #bytes()}. */
  Optional<Long> perUserBytes();

  /** How long a request body waits for room before it is refused (429); nothing of it is read meanwhile. */
  @WithDefault("2s")
  Duration bodyWait();

  /**
   * Bytes per second of large request bodies (64 KiB and more: file saves, writes, uploads) one user
   * sends, sustained; 0 turns the pacing off. A body over the rate waits, unread (at most
   * {@link #bodyWait()}, then 429 with Retry-After).
   */
  @WithDefault("16777216")
  long bulkBytesPerSecond();

  /** Bytes of large bodies one user may send at once after a pause, before the pacing starts. */
  @WithDefault("16777216")
  long bulkBurstBytes();

  /**
   * Bytes per second of large request bodies all users together send, sustained (two users at the
   * full pace of one); 0 turns it off. Chosen for a 2-core host, where the gateway, NATS and
   * sandbox-service share the cores: a host with more can raise it.
   */
  @WithDefault("33554432")
  long bulkTotalBytesPerSecond();

  /** Bytes of large bodies all users together may send at once after a pause. */
  @WithDefault("33554432")
  long bulkTotalBurstBytes();
}
