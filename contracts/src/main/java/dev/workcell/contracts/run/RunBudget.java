package dev.workcell.contracts.run;

import dev.workcell.contracts.Subjects;

/**
 * The budgets agent-runner drives runs with, as configured (answer to {@link #SUBJECT}, request
 * {@link Query}): model rounds (WORK_MAX_AGENT_ROUNDS), the tool-call safety budget, and how long a
 * run waits for a sandbox slot (WORK_RUN_LEASE_WAIT_MS) before it ends needs_input.
 */
public record RunBudget(int maxRounds, int toolCallBudget, long runLeaseWaitMs) {

  public static final String SUBJECT = Subjects.PREFIX + ".agent-runner.budget";

  /** Asks for the budget; carries nothing. */
  public record Query() {}
}
