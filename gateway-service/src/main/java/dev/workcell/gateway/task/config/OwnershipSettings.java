package dev.workcell.gateway.task.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How long the gateway reuses task-service's answer that an account may reach one of its tasks
 * (the check before every Work file, command, Git and preview request). A revocation reaches every
 * gateway at once over NATS; these bound what a lost notice could leave behind (decision 0025).
 */
@ConfigMapping(prefix = "workcell.gateway.ownership")
public interface OwnershipSettings {

  /** The longest an answer is reused; 0 asks task-service on every request. */
  @WithDefault("10s")
  Duration reuseFor();

  /** An answer this old is checked again in the background while it is still reused. */
  @WithDefault("1s")
  Duration recheckAfter();

  /** Answers kept at most (account × task pairs); beyond that, new ones are not kept. */
  @WithDefault("10000")
  int maxEntries();
}
