package dev.workcell.sandbox.kubernetes.health;

import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.kubernetes.config.KubernetesSettings;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * On the kubernetes backend, sandbox-service is ready only while the API server lets it list Pods in
 * the sandbox namespace (reachable, and the Role bound). On docker it asks nothing: the client is never built.
 */
@Readiness
@ApplicationScoped
public class KubernetesApiReadinessCheck implements HealthCheck {

  private final boolean used;
  private final Instance<KubernetesClient> client;
  private final KubernetesSettings k8s;

  public KubernetesApiReadinessCheck(SandboxSettings settings, KubernetesSettings k8s, Instance<KubernetesClient> client) {
    this.used = settings.kubernetes();
    this.client = client;
    this.k8s = k8s;
  }

  @Override
  public HealthCheckResponse call() {
    var response = HealthCheckResponse.named("kubernetes-api");
    if (!used) {
      return response.withData("backend", "docker (not used)").up().build();
    }
    response.withData("namespace", k8s.namespace());
    try {
      client.get().pods().inNamespace(k8s.namespace()).list(new ListOptionsBuilder().withLimit(1L).build());
      return response.up().build();
    } catch (RuntimeException e) {
      return response.down().withData("error", String.valueOf(e.getMessage())).build();
    }
  }
}
