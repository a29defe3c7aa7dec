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
}
