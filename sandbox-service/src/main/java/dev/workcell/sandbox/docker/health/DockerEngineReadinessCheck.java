package dev.workcell.sandbox.docker.health;

import com.github.dockerjava.api.DockerClient;
import dev.workcell.sandbox.config.DockerSettings;
import dev.workcell.sandbox.config.SandboxSettings;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** sandbox-service is ready only while the Docker engine answers (when sandboxes run on Docker). */
@Readiness
@ApplicationScoped
public class DockerEngineReadinessCheck implements HealthCheck {

  private final DockerClient docker;
  private final DockerSettings settings;
  private final boolean used;

  public DockerEngineReadinessCheck(DockerClient docker, DockerSettings settings, SandboxSettings sandbox) {
    this.docker = docker;
    this.settings = settings;
    this.used = !sandbox.kubernetes();
  }

  @Override
  public HealthCheckResponse call() {
    if (!used) {
      return HealthCheckResponse.named("docker-engine").withData("backend", "kubernetes (not used)").up().build();
    }
    var response = HealthCheckResponse.named("docker-engine").withData("host", settings.host());
    try {
      docker.pingCmd().exec();
      return response.up().build();
    } catch (RuntimeException e) {
      return response.down().withData("error", String.valueOf(e.getMessage())).build();
    }
  }
}
