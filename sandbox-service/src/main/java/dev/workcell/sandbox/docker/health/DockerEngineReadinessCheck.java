package dev.workcell.sandbox.docker.health;

import com.github.dockerjava.api.DockerClient;
import dev.workcell.sandbox.config.DockerSettings;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** sandbox-service is ready only while the Docker engine answers. */
@Readiness
@ApplicationScoped
public class DockerEngineReadinessCheck implements HealthCheck {

  private final DockerClient docker;
  private final DockerSettings settings;

  public DockerEngineReadinessCheck(DockerClient docker, DockerSettings settings) {
    this.docker = docker;
    this.settings = settings;
  }

  @Override
  public HealthCheckResponse call() {
    var response = HealthCheckResponse.named("docker-engine").withData("host", settings.host());
    try {
      docker.pingCmd().exec();
      return response.up().build();
    } catch (RuntimeException e) {
      return response.down().withData("error", String.valueOf(e.getMessage())).build();
    }
  }
}
