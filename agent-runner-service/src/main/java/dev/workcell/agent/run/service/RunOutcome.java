package dev.workcell.agent.run.service;

import dev.workcell.contracts.task.RunState;

/**
 * How a run ended and why, as told to task-service and to the live stream. {@code elsewhere}: the
 * run already ended in task-service (cancel, lease lost), which decided the state; the runner then
 * reports nothing and publishes final events only if task-service's are missing.
 */
public record RunOutcome(RunState state, String reason, boolean elsewhere) {

  public RunOutcome(RunState state, String reason) {
    this(state, reason, false);
  }
}
