package dev.workcell.sandbox.admission.health;

import dev.workcell.sandbox.admission.service.SafeMode;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Not ready while in safe mode: mutations are refused until startup cleanup is proven. */
@Readiness
@ApplicationScoped
public class SafeModeReadinessCheck implements HealthCheck {

  private final SafeMode safeMode;

  public SafeModeReadinessCheck(SafeMode safeMode) {
    this.safeMode = safeMode;
  }

  @Override
  public HealthCheckResponse call() {
    String reason = safeMode.reason();
    var response = HealthCheckResponse.named("sandbox-safe-mode").status(reason == null);
    return reason == null ? response.build() : response.withData("reason", reason).build();
  }
}
