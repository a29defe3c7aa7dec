package dev.workcell.sandbox.kubernetes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxLabels;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * sandbox-service starts on WORK_RUNTIME_BACKEND=kubernetes against a Kubernetes API server (fabric8's
 * mock, CRUD mode): the one SandboxDriver is the Kubernetes driver, its readiness check asks the API
 * server, and the Docker engine's check says it is not used.
 */
@QuarkusTest
@QuarkusTestResource(value = KubernetesBackendStartTest.MockApiServer.class, restrictToAnnotatedClass = true)
class KubernetesBackendStartTest {

  static final String NAMESPACE = "workcell-sandboxes-test";

  /** The API server of this test; the backend is kubernetes and the Quarkus client points at it. */
  public static class MockApiServer implements QuarkusTestResourceLifecycleManager {
    static KubernetesMockServer server;

    @Override
    public Map<String, String> start() {
      server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(List.of()), false);
      server.init();
      return Map.of("workcell.sandbox.backend", "kubernetes", "workcell.kubernetes.namespace", NAMESPACE,
          "quarkus.kubernetes-client.api-server-url", server.url("/"));
    }

    @Override
    public void stop() {
      server.destroy();
    }
  }

  @Inject
  SandboxDriver driver;

  @Test
  void theDriverIsKubernetesAndReadinessAsksTheApiServer() {
    JsonPath health = given().get("/q/health/ready").then().extract().jsonPath();
    assertThat(health.getString("checks.find { it.name == 'kubernetes-api' }.status")).isEqualTo("UP");
    assertThat(health.getString("checks.find { it.name == 'kubernetes-api' }.data.namespace")).isEqualTo(NAMESPACE);
    assertThat(health.getString("checks.find { it.name == 'docker-engine' }.data.backend")).isEqualTo("kubernetes (not used)");

    // A Pod of this deployment in the namespace is what the driver lists: the chosen driver is the Kubernetes one.
    SandboxKey key = SandboxKey.task("k8s-start", "alice");
    try (var client = MockApiServer.server.createClient()) {
      client.pods().inNamespace(NAMESPACE).resource(new PodBuilder().withNewMetadata().withName("workcell-task-k8s-start")
          .withLabels(Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.INSTANCE, "test-sandbox-service",
              SandboxLabels.TASK, "k8s-start", SandboxLabels.OWNER, "alice")).endMetadata()
          .withNewSpec().addNewContainer().withName("sandbox").withImage("workcell/sandbox:dev").endContainer().endSpec().build()).create();
    }
    assertThat(driver.listManaged()).extracting(SandboxInstance::key).containsExactly(key);
    assertThat(driver.celldSwitchesUser()).isFalse();
  }
}
