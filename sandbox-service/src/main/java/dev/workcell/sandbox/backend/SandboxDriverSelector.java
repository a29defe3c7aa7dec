package dev.workcell.sandbox.backend;

import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.docker.client.DockerSandboxDriver;
import dev.workcell.sandbox.kubernetes.client.KubernetesSandboxDriver;
import dev.workcell.sandbox.runtime.SandboxDriver;
import io.quarkus.logging.Log;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;

/**
 * The one {@link SandboxDriver} every service class gets, chosen by WORK_RUNTIME_BACKEND. Only the
 * chosen driver is ever instantiated: with docker the Kubernetes client is never built (so nothing
 * looks for a cluster), with kubernetes the Docker client is never used by a driver.
 */
@ApplicationScoped
public class SandboxDriverSelector {

  /** An alternative with a priority wins over the Docker driver's own bean type, which stays as it was. */
  @Produces
  @Alternative
  @Priority(1)
  @ApplicationScoped
  SandboxDriver driver(SandboxSettings settings, Instance<DockerSandboxDriver> docker, Instance<KubernetesSandboxDriver> kubernetes) {
    if (settings.kubernetes()) {
      Log.infof("sandbox backend: kubernetes");
      return kubernetes.get();
    }
    return docker.get();
  }
}
