package dev.workcell.agent.run.health;

import dev.workcell.agent.run.messaging.RunRequestIntake;
import dev.workcell.agent.provider.service.ProviderRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready when the runner can take runs: its work-queue consumer is bound. Lists configured provider ids (never URLs or keys). */
@Readiness
@ApplicationScoped
public class RunIntakeReadinessCheck implements HealthCheck {

  private final RunRequestIntake intake;
  private final ProviderRegistry providers;

  public RunIntakeReadinessCheck(RunRequestIntake intake, ProviderRegistry providers) {
    this.intake = intake;
    this.providers = providers;
  }

  @Override
  public HealthCheckResponse call() {
    return HealthCheckResponse.named("run-intake")
        .status(intake.subscribed())
        .withData("providers", String.join(",", providers.ids()))
        .build();
  }
}
