package dev.workcell.task.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * Settings of the Work data model. application.properties maps seed 004's {@code WORK_*} names onto
 * these properties, so both spellings work from the environment.
 */
@ConfigMapping(prefix = "workcell.task")
public interface TaskSettings {

  /** Persistent tasks one account may own ({@code WORK_MAX_TASKS_PER_USER}). */
  @WithDefault("100")
  int maxTasksPerUser();

  /** Persistent tasks of the whole instance ({@code WORK_MAX_TASKS_GLOBAL}). */
  @WithDefault("500")
  int maxTasksGlobal();

  /** How long sandbox-service may take to remove a task's container and volume. */
  @WithDefault("120s")
  Duration sandboxDeleteTimeout();

  /** How long sandbox-service may take to stop a sandbox when access is revoked. */
  @WithDefault("60s")
  Duration sandboxStopTimeout();

  /** How long an approval waits for a decision before it expires and the action is not run. */
  @WithDefault("5m")
  Duration approvalTimeout();

  /** Whether start-up fails runs left active and clears preview state (see RunRecovery). */
  @WithDefault("true")
  boolean recoverAtStart();

  /** Secret file the provider API keys are sealed with (WORKCELL_PROVIDER_KEY_FILE); unset: no key can be stored. */
  Optional<String> providerKeyFile();
  /**
   * How long a runner's lease on a run holds without a heartbeat; a run whose lease expired lost its
   * runner and is failed ({@code runner_lost}). Runners beat well within it.
   */
  @WithDefault("20s")
  Duration runLease();

  /** How often expired leases are looked for while the service runs (0 turns the sweeper off). */
  @WithDefault("5s")
  Duration leaseSweepInterval();

  /**
   * How long a run may wait untaken before the work queue is checked for its request; a run whose
   * request is gone is failed (nobody will ever take it).
   */
  @WithDefault("60s")
  Duration untakenGrace();
}
