package dev.workcell.sandbox.budget.health;

import dev.workcell.messaging.budget.ByteBudgetHealth;
import dev.workcell.sandbox.budget.service.SandboxBudget;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Not ready while the content budget is exhausted ({@code memory_budget_exhausted}). */
@Readiness
@ApplicationScoped
public class BudgetReadinessCheck implements HealthCheck {

  private final SandboxBudget budget;

  public BudgetReadinessCheck(SandboxBudget budget) {
    this.budget = budget;
  }

  @Override
  public HealthCheckResponse call() {
    return ByteBudgetHealth.of(budget.budget());
  }
}
