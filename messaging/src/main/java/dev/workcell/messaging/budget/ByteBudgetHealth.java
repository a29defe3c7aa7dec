package dev.workcell.messaging.budget;

import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * The readiness answer of a {@link ByteBudget}: down while it is exhausted, with the stable reason
 * {@code memory_budget_exhausted}, so a load balancer sends new work elsewhere until content drains.
 */
public final class ByteBudgetHealth {

  public static final String EXHAUSTED = "memory_budget_exhausted";

  private ByteBudgetHealth() {}

  public static HealthCheckResponse of(ByteBudget budget) {
    boolean exhausted = budget.exhausted();
    var response = HealthCheckResponse.named("memory-budget")
        .status(!exhausted)
        .withData("heldBytes", budget.held())
        .withData("limitBytes", budget.limit())
        .withData("perUserBytes", budget.perUser())
        .withData("refused", budget.refused());
    if (exhausted) {
      response.withData("reason", EXHAUSTED);
    }
    return response.build();
  }
}
