package dev.workcell.agent.budget.service;

import dev.workcell.agent.config.AgentSettings;
import dev.workcell.messaging.budget.ByteBudget;
import dev.workcell.messaging.budget.ByteBudgetMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * agent-runner's {@link ByteBudget}: a model's answer is counted as it streams, against the runner
 * and the run owner's share, so many runs (or one runaway model) cannot exhaust the heap. Keyed by
 * the task owner's account.
 */
@ApplicationScoped
public class RunnerBudget {

  /** A streamed character is held twice as UTF-16: by the provider's reader and in the round's result. */
  public static final int BYTES_PER_CHAR = 4;

  private final ByteBudget budget;

  @Inject
  public RunnerBudget(AgentSettings settings, MeterRegistry registry) {
    this(ByteBudgetMetrics.register(ByteBudget.configured("agent-runner", settings.budgetBytes(), settings.budgetPerUserBytes()),
        registry, "agent-runner"));
  }

  public RunnerBudget(ByteBudget budget) {
    this.budget = budget;
  }

  public ByteBudget budget() {
    return budget;
  }

  /** Room for one round's answer of {@code ownerId}'s run, growing as it streams. */
  public ByteBudget.Tally round(String ownerId) {
    return budget.tally("account:" + ownerId);
  }
}
