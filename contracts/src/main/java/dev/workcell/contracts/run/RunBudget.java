package dev.workcell.contracts.run;

import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.subject.NatsUser;
import dev.workcell.contracts.subject.Subject;

/**
 * The budgets agent-runner drives runs with, as configured (answer to {@link #SUBJECT}, request
 * {@link Query}): model rounds (WORK_MAX_AGENT_ROUNDS), the tool-call safety budget, and how long a
 * run waits for a sandbox slot (WORK_RUN_LEASE_WAIT_MS) before it ends needs_input.
 */
public record RunBudget(int maxRounds, int toolCallBudget, long runLeaseWaitMs) {

  public static final Subject<Query, RunBudget> SUBJECT = Subject.of(Subjects.PREFIX + ".agent-runner.budget", Query.class,
      RunBudget.class, ServiceName.AGENT_RUNNER, NatsUser.GATEWAY);

  /** Asks for the budget; carries nothing. */
  public record Query() {}
}
