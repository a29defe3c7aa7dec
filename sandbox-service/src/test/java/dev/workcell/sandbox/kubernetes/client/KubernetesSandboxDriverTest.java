package dev.workcell.sandbox.kubernetes.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.ManagedVolume;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes driver against fabric8's Kubernetes mock API server in CRUD mode: what it stores
 * and returns is what the driver wrote. No kubelet runs there, so a test plays the kubelet by
 * writing a Pod's status (Running and Ready, or an image that cannot be pulled); pods/exec is
 * {@link PodExecTest}'s.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesSandboxDriverTest {

  private static final String NAMESPACE = "sandboxes-test";
  private static final String INSTANCE = KubernetesTestDrivers.INSTANCE;
  private static final long WORKSPACE_BYTES = KubernetesTestDrivers.WORKSPACE_BYTES;

  static KubernetesClient client;
  static KubernetesMockServer server;

  private KubernetesSandboxDriver driver;

  @BeforeEach
  void cleanNamespace() {
    client.pods().inNamespace(NAMESPACE).delete();
    client.persistentVolumeClaims().inNamespace(NAMESPACE).delete();
    driver = KubernetesTestDrivers.driver(client, NAMESPACE, Map.of());
  }

  private static SandboxSpec spec(long memoryBytes, boolean network) {
    return spec(memoryBytes, network, SandboxHardening.WORKSPACE);
  }

  private static SandboxSpec spec(long memoryBytes, boolean network, String workdir) {
    return new SandboxSpec("workcell/sandbox:dev", memoryBytes, 1_500_000_000L, 1024, 256, 512L << 20, network,
        network ? "workcell-sandbox" : "none", List.of(), network ? 4173 : 0, network ? "127.0.0.1" : "", workdir, "");
  }

  @Test
  void createWritesAPodWhoseEverySecurityFieldTheApiServerReturns() {
    SandboxKey key = SandboxKey.task("t1", "alice");
    SandboxInstance created = driver.create(key, spec(2L << 30, true), "{\"network\":true}");

    assertThat(created.name()).isEqualTo("workcell-task-t1");
    assertThat(created.state()).isEqualTo("created");
    assertThat(key.owns(created.labels(), INSTANCE)).isTrue();

    // Read back from the API server, not from the object the driver built.
    Pod pod = client.pods().inNamespace(NAMESPACE).withName("workcell-task-t1").get();
    var podSecurity = pod.getSpec().getSecurityContext();
    assertThat(podSecurity.getRunAsUser()).isEqualTo(1000L);
    assertThat(podSecurity.getRunAsGroup()).isEqualTo(1000L);
    assertThat(podSecurity.getRunAsNonRoot()).isTrue();
    assertThat(podSecurity.getFsGroup()).isEqualTo(1000L);
    assertThat(podSecurity.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
    assertThat(pod.getSpec().getEnableServiceLinks()).isFalse();
    assertThat(pod.getSpec().getHostNetwork()).isFalse();
    assertThat(pod.getSpec().getHostPID()).isFalse();
    assertThat(pod.getSpec().getHostIPC()).isFalse();
    assertThat(pod.getSpec().getShareProcessNamespace()).isTrue();
    assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    for (Container container : List.of(pod.getSpec().getContainers().get(0), pod.getSpec().getInitContainers().get(0))) {
      var security = container.getSecurityContext();
      assertThat(security.getRunAsUser()).as(container.getName()).isEqualTo(1000L);
      assertThat(security.getRunAsGroup()).as(container.getName()).isEqualTo(1000L);
      assertThat(security.getRunAsNonRoot()).as(container.getName()).isTrue();
      assertThat(security.getReadOnlyRootFilesystem()).as(container.getName()).isTrue();
      assertThat(security.getAllowPrivilegeEscalation()).as(container.getName()).isFalse();
      assertThat(security.getPrivileged()).as(container.getName()).isFalse();
      assertThat(security.getCapabilities().getDrop()).as(container.getName()).containsExactly("ALL");
      assertThat(security.getCapabilities().getAdd()).as(container.getName()).isNullOrEmpty();
      assertThat(security.getSeccompProfile().getType()).as(container.getName()).isEqualTo("RuntimeDefault");
    }
    Container sandbox = pod.getSpec().getContainers().get(0);
    assertThat(sandbox.getCommand()).isEqualTo(SandboxHardening.ENTRYPOINT);
    assertThat(sandbox.getWorkingDir()).isEqualTo("/workspace");
    assertThat(sandbox.getResources().getLimits()).containsEntry("memory", new Quantity(Long.toString(2L << 30)))
        .containsEntry("cpu", new Quantity("1500m"));
    assertThat(sandbox.getResources().getRequests()).containsEntry("cpu", new Quantity("1000m"));
    assertThat(sandbox.getPorts()).singleElement().satisfies(port -> {
      assertThat(port.getContainerPort()).isEqualTo(4173);
      assertThat(port.getHostPort()).isNull();
    });
    assertThat(sandbox.getVolumeMounts()).extracting(m -> m.getMountPath() + ":" + m.getReadOnly())
        .containsExactlyInAnyOrder("/workspace:false", "/tmp:false", "/opt/workcell:true");
    var tmp = pod.getSpec().getVolumes().stream().filter(v -> v.getName().equals("tmp")).findFirst().orElseThrow().getEmptyDir();
    assertThat(tmp.getMedium()).isEqualTo("Memory");
    assertThat(tmp.getSizeLimit()).isEqualTo(new Quantity(Long.toString(512L << 20)));
    assertThat(pod.getMetadata().getLabels()).containsEntry(SandboxLabels.MANAGED, "true").containsEntry(SandboxLabels.INSTANCE, INSTANCE)
        .containsEntry(SandboxLabels.TASK, "t1").containsEntry(SandboxLabels.OWNER, "alice").containsEntry("workcell.dev/network", "enabled");
    assertThat(pod.getMetadata().getAnnotations()).containsEntry(SandboxLabels.POLICY, "{\"network\":true}")
        .containsEntry(SandboxLabels.POLICY_HASH, spec(2L << 30, true).hash());

    PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(NAMESPACE).withName("workcell-ws-t1").get();
    assertThat(claim.getSpec().getStorageClassName()).isEqualTo("fast-ssd");
    assertThat(claim.getSpec().getResources().getRequests().get("storage")).isEqualTo(new Quantity(Long.toString(WORKSPACE_BYTES)));
    assertThat(pod.getSpec().getVolumes()).anySatisfy(v -> assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("workcell-ws-t1"));
    assertThat(driver.drift(key, created, spec(2L << 30, true))).isEmpty();
  }

  @Test
  void startWaitsForReadyStopDeletesThePodKeepsThePvcAndStartBringsThePodBack() throws Exception {
    SandboxKey key = SandboxKey.task("t2", "alice");
    SandboxSpec spec = spec(1L << 30, true);
    SandboxInstance created = driver.create(key, spec, null);
    String claimUid = claimUid("workcell-ws-t2");

    CompletableFuture<Void> start = CompletableFuture.runAsync(() -> driver.start(created, spec));
    Thread.sleep(300);
    assertThat(start).isNotDone(); // no kubelet yet: the Pod is not Ready
    markReady("workcell-task-t2", "10.0.0.7");
    start.get(5, TimeUnit.SECONDS);
    assertThat(driver.find(key)).get().extracting(SandboxInstance::state).isEqualTo("running");
    assertThat(driver.previewEndpoint(created)).get().satisfies(endpoint -> {
      assertThat(endpoint.hostAddress()).isEqualTo("10.0.0.7");
      assertThat(endpoint.hostPort()).isEqualTo(4173);
    });

    driver.stop(created);
    assertThat(driver.find(key)).isEmpty();
    assertThat(driver.findVolume(key)).get().extracting(ManagedVolume::name).isEqualTo("workcell-ws-t2");

    CompletableFuture<Void> again = CompletableFuture.runAsync(() -> driver.start(created, spec));
    awaitPod("workcell-task-t2");
    markReady("workcell-task-t2", "10.0.0.8");
    again.get(5, TimeUnit.SECONDS);
    assertThat(driver.drift(key, created, spec)).isEmpty();
    assertThat(claimUid("workcell-ws-t2")).isEqualTo(claimUid);

    driver.removeContainer(created);
    driver.removeVolume(driver.findVolume(key).orElseThrow());
    assertThat(driver.find(key)).isEmpty();
    assertThat(driver.findVolume(key)).isEmpty();
  }

  @Test
  void aPodThatCannotPullItsImageFailsTheStartWithTheKubeletsReason() {
    SandboxKey key = SandboxKey.task("t3", "alice");
    SandboxInstance created = driver.create(key, spec(1L << 30, false), null);
    client.pods().inNamespace(NAMESPACE).withName(created.name()).editStatus(pod -> new PodBuilder(pod).withStatus(new PodStatusBuilder()
        .withPhase("Pending").addNewContainerStatus().withName("sandbox").withImage("workcell/sandbox:dev").withNewState().withNewWaiting()
        .withReason("ImagePullBackOff").withMessage("pull access denied").endWaiting().endState().endContainerStatus().build()).build());

    long started = System.nanoTime();
    assertThatThrownBy(() -> driver.start(created, spec(1L << 30, false))).isInstanceOf(WorkcellException.class)
        .hasMessageContaining("ImagePullBackOff").hasMessageContaining("pull access denied");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).as("does not wait out the ready timeout").isLessThan(4_000);
    assertThat(driver.startFailure(created)).get().asString().contains("ImagePullBackOff");
  }

  @Test
  void reconciliationListsThisDeploymentsPodsAndPvcsInOneLabelledRequestEach() {
    driver.create(SandboxKey.task("t4", "alice"), spec(1L << 30, false), null);
    driver.create(SandboxKey.home("bob@example.com"), spec(1L << 30, true, SandboxKey.HOME_DIR), null);
    client.pods().inNamespace(NAMESPACE).resource(foreignPod("someone-else", Map.of(SandboxLabels.MANAGED, "true",
        SandboxLabels.INSTANCE, "other-deployment", SandboxLabels.TASK, "t9", SandboxLabels.OWNER, "mallory"))).create();
    client.pods().inNamespace(NAMESPACE).resource(foreignPod("unlabelled", Map.of())).create();

    int before = server.getRequestCount();
    List<SandboxInstance> pods = driver.listManaged();
    assertThat(server.getRequestCount() - before).isEqualTo(1);
    before = server.getRequestCount();
    List<ManagedVolume> volumes = driver.listManagedVolumes();
    assertThat(server.getRequestCount() - before).isEqualTo(1);

    assertThat(pods).extracting(SandboxInstance::key).containsExactlyInAnyOrder(SandboxKey.task("t4", "alice"), SandboxKey.home("bob@example.com"));
    assertThat(volumes).extracting(ManagedVolume::name).hasSize(2).allMatch(name -> name.length() <= 63);
    SandboxInstance home = pods.stream().filter(SandboxInstance::home).findFirst().orElseThrow();
    assertThat(home.name()).hasSizeLessThanOrEqualTo(63); // a DNS label although the Docker name is 78 characters
    assertThat(SandboxKey.home("bob@example.com").owns(home.labels(), INSTANCE)).isTrue();
    assertThat(client.pods().inNamespace(NAMESPACE).withName(home.name()).get().getSpec().getContainers().get(0).getEnv())
        .singleElement().satisfies(env -> assertThat(env.getName() + "=" + env.getValue()).isEqualTo("HOME=/home/user"));
  }

  @Test
  void driftNamesEveryWeakenedSecurityFieldAndARecreateKeepsThePvc() {
    SandboxKey key = SandboxKey.task("t5", "alice");
    SandboxSpec spec = spec(1L << 30, false);
    SandboxInstance created = driver.create(key, spec, null);
    String claimUid = claimUid("workcell-ws-t5");

    // What a mutating webhook or a hand edit could do to the stored Pod.
    client.pods().inNamespace(NAMESPACE).withName(created.name()).edit(pod -> new PodBuilder(pod).editSpec()
        .withAutomountServiceAccountToken(true).withEnableServiceLinks(true).withHostNetwork(true).withHostPID(true).withHostIPC(true)
        .editSecurityContext().withRunAsUser(0L).withRunAsNonRoot(false).withNewSeccompProfile("", "Unconfined").endSecurityContext()
        .editFirstContainer().editSecurityContext().withRunAsUser(0L).withRunAsGroup(0L).withRunAsNonRoot(false)
        .withReadOnlyRootFilesystem(false).withAllowPrivilegeEscalation(true).withPrivileged(true)
        .withNewCapabilities().withAdd("SYS_ADMIN").endCapabilities().withNewSeccompProfile("", "Unconfined").endSecurityContext()
        .endContainer().endSpec().build());

    List<String> drift = driver.drift(key, created, spec);
    assertThat(String.join("\n", drift)).contains("automountServiceAccountToken", "enableServiceLinks", "hostNetwork", "hostPID",
        "hostIPC", "pod runAsUser", "pod runAsNonRoot", "pod seccompProfile", "sandbox runAsUser", "sandbox runAsGroup",
        "sandbox runAsNonRoot", "sandbox readOnlyRootFilesystem", "sandbox allowPrivilegeEscalation", "sandbox privileged",
        "sandbox capabilities", "sandbox seccompProfile");
    assertThat(driver.drift(key, created, spec(2L << 30, false))).isNotEmpty().anyMatch(line -> line.startsWith("annotations"));

    // What SandboxLifecycle does with a drifted sandbox: remove the Pod, create it again, keep the volume.
    driver.removeContainer(created);
    SandboxInstance recreated = driver.create(key, spec, null);
    assertThat(driver.drift(key, recreated, spec)).isEmpty();
    assertThat(claimUid("workcell-ws-t5")).isEqualTo(claimUid);
  }

  @Test
  void aNameHeldByAnotherTasksOrDeploymentsResourceIsRefused() {
    client.persistentVolumeClaims().inNamespace(NAMESPACE).resource(new PersistentVolumeClaimBuilder().withNewMetadata()
        .withName("workcell-ws-t6").withLabels(Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.INSTANCE, INSTANCE,
            SandboxLabels.TASK, "t6", SandboxLabels.OWNER, "mallory")).endMetadata().withNewSpec().endSpec().build()).create();
    assertThatThrownBy(() -> driver.create(SandboxKey.task("t6", "alice"), spec(1L << 30, false), null))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT));
    assertThat(client.pods().inNamespace(NAMESPACE).withName("workcell-task-t6").get()).isNull();

    client.pods().inNamespace(NAMESPACE).resource(foreignPod("workcell-task-t7", Map.of(SandboxLabels.MANAGED, "true",
        SandboxLabels.INSTANCE, "other-deployment", SandboxLabels.TASK, "t7", SandboxLabels.OWNER, "alice"))).create();
    SandboxKey key = SandboxKey.task("t7", "alice");
    assertThat(driver.find(key)).get().satisfies(found -> assertThat(key.owns(found.labels(), INSTANCE)).isFalse());
    assertThatThrownBy(() -> driver.create(key, spec(1L << 30, false), null))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT));
    assertThat(client.pods().inNamespace(NAMESPACE).withName("workcell-task-t7").get().getMetadata().getLabels())
        .containsEntry(SandboxLabels.INSTANCE, "other-deployment");
  }

  @Test
  void taskIdsThatAreNotDnsNamesGetDistinctValidNames() {
    assertThat(ResourceNames.of("workcell-task-abc")).isEqualTo("workcell-task-abc");
    String upper = ResourceNames.of("workcell-task-Ab_1");
    String lower = ResourceNames.of("workcell-task-ab-1");
    assertThat(upper).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?").hasSizeLessThanOrEqualTo(63).isNotEqualTo(lower);
    assertThat(ResourceNames.of("workcell-task-" + "x".repeat(63) + "-")).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?").hasSizeLessThanOrEqualTo(63);
  }

  private static Pod foreignPod(String name, Map<String, String> labels) {
    return new PodBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewSpec().addNewContainer().withName("app").withImage("busybox").endContainer().endSpec().build();
  }

  private static void markReady(String name, String ip) {
    KubernetesTestDrivers.markReady(client, NAMESPACE, name, ip);
  }

  private static void awaitPod(String name) throws InterruptedException {
    for (int i = 0; i < 100 && client.pods().inNamespace(NAMESPACE).withName(name).get() == null; i++) {
      Thread.sleep(50);
    }
  }

  private static String claimUid(String name) {
    return client.persistentVolumeClaims().inNamespace(NAMESPACE).withName(name).get().getMetadata().getUid();
  }
}
