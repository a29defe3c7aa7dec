package dev.workcell.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.workcell.contracts.subject.NatsPermissions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What an installer of helm/workcell relies on, checked on the rendered objects (no cluster here):
 * hardened Pods, RBAC for sandbox-service alone, closed sandbox networks and the generated NATS grants.
 */
class ChartTest {

  private static final String PREFIX = RenderedChart.RELEASE + "-workcell-";
  private static final String SANDBOX_NS = "workcell-sandboxes";
  private static final List<String> SERVICES = List.of("gateway-service", "task-service", "agent-runner-service",
      "sandbox-service", "preview-proxy-service", "terminal-service", "sandbox-mirror");
  private static final List<String> PRIVATE_RANGES = List.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
      "169.254.0.0/16", "100.64.0.0/10");

  static Stream<Arguments> valueSets() {
    return Stream.of(
        Arguments.of("defaults", Map.of()),
        Arguments.of("external NATS, PostgreSQL and S3", Map.of("nats.external.url", "nats://nats.infra:4222",
            "postgresql.external.host", "pg.infra", "s3.mode", "external", "s3.external.endpoint", "https://s3.infra")),
        Arguments.of("work disabled", Map.of("work.enabled", false)),
        Arguments.of("blocked egress CIDRs", Map.of("work.networkPolicy.blockedEgressCidrs", List.of("203.0.113.0/24", "198.51.100.0/24"))),
        Arguments.of("existing secret, no token job", Map.of("secrets.existingSecret", "my-secrets", "cli.token.enabled", false)));
  }

  @Test
  void lintPassesStrict() {
    LintResult lint = new Helm(RenderedChart.CHART).lint().strict().call();
    assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void everyPodRunsNonRootReadOnlyWithResources(String name, Map<String, Object> values) {
    RenderedChart chart = RenderedChart.render(values);
    assertThat(chart.podTemplates()).isNotEmpty();
    // Every Pod the chart can make comes from one of those templates: no bare Pod, Job, DaemonSet or ReplicaSet.
    assertThat(Stream.of(Pod.class, Job.class, DaemonSet.class, ReplicaSet.class).flatMap(kind -> chart.all(kind).stream()))
        .extracting(o -> o.getKind() + "/" + o.getMetadata().getName()).isEmpty();
    chart.podTemplates().forEach((owner, template) -> {
      PodSpec pod = template.getSpec();
      assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(owner).isTrue();
      assertThat(pod.getSecurityContext().getSeccompProfile().getType()).as(owner).isEqualTo("RuntimeDefault");
      Stream.concat(pod.getContainers().stream(), pod.getInitContainers().stream()).forEach(container -> {
        String what = owner + "/" + container.getName();
        var security = container.getSecurityContext();
        assertThat(security.getRunAsNonRoot()).as(what).isTrue();
        assertThat(security.getRunAsUser()).as(what).isPositive();
        assertThat(security.getReadOnlyRootFilesystem()).as(what).isTrue();
        assertThat(security.getAllowPrivilegeEscalation()).as(what).isFalse();
        assertThat(security.getCapabilities().getDrop()).as(what).containsExactly("ALL");
        assertThat(security.getCapabilities().getAdd()).as(what).isNullOrEmpty();
        assertThat(security.getSeccompProfile().getType()).as(what).isEqualTo("RuntimeDefault");
        assertThat(container.getResources().getRequests()).as(what).containsKeys("cpu", "memory");
        assertThat(container.getResources().getLimits()).as(what).containsKey("memory");
      });
      boolean sandboxService = owner.equals(PREFIX + "sandbox-service");
      assertThat(pod.getAutomountServiceAccountToken()).as(owner + " gets a token only if it is sandbox-service")
          .isEqualTo(sandboxService);
      Volume tmp = pod.getVolumes().stream().filter(v -> v.getName().equals("tmp")).findFirst().orElseThrow();
      assertThat(tmp.getEmptyDir().getSizeLimit()).as(owner + " /tmp is size-limited").isNotNull();
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void everyServiceHasDeploymentServiceProbesAndPdb(String name, Map<String, Object> values) {
    RenderedChart chart = RenderedChart.render(values);
    boolean work = !Boolean.FALSE.equals(values.get("work.enabled"));
    List<String> expected = work ? SERVICES : List.of("gateway-service", "task-service", "agent-runner-service");
    assertThat(chart.all(Deployment.class)).extracting(d -> d.getMetadata().getName())
        .containsExactlyInAnyOrderElementsOf(expected.stream().map(s -> PREFIX + s).toList());
    for (String service : expected) {
      Container container = chart.named(Deployment.class, PREFIX + service).orElseThrow()
          .getSpec().getTemplate().getSpec().getContainers().getFirst();
      assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
      assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
      assertThat(chart.named(io.fabric8.kubernetes.api.model.Service.class, PREFIX + service)).as(service).isPresent();
      assertThat(chart.named(PodDisruptionBudget.class, PREFIX + service)).as(service).isPresent();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void onlySandboxServiceMayCreatePodsPvcsAndExec(String name, Map<String, Object> values) {
    RenderedChart chart = RenderedChart.render(values);
    Set<String> powerful = Stream.concat(
            chart.all(Role.class).stream().filter(r -> grantsSandboxPowers(r.getRules())).map(r -> "Role/" + r.getMetadata().getName()),
            chart.all(ClusterRole.class).stream().filter(r -> grantsSandboxPowers(r.getRules())).map(r -> "ClusterRole/" + r.getMetadata().getName()))
        .collect(Collectors.toSet());
    List<Subject> subjects = Stream.concat(
            chart.all(RoleBinding.class).stream()
                .filter(b -> powerful.contains(b.getRoleRef().getKind() + "/" + b.getRoleRef().getName()))
                .flatMap(b -> {
                  assertThat(b.getMetadata().getNamespace()).isEqualTo(SANDBOX_NS);
                  return b.getSubjects().stream();
                }),
            chart.all(ClusterRoleBinding.class).stream()
                .filter(b -> powerful.contains(b.getRoleRef().getKind() + "/" + b.getRoleRef().getName()))
                .flatMap(b -> b.getSubjects().stream()))
        .toList();
    if (Boolean.FALSE.equals(values.get("work.enabled"))) {
      assertThat(subjects).isEmpty();
      assertThat(chart.all(Role.class)).isEmpty();
      return;
    }
    assertThat(chart.all(ClusterRole.class)).isEmpty();
    assertThat(chart.all(Role.class)).allSatisfy(r -> assertThat(r.getMetadata().getNamespace()).isEqualTo(SANDBOX_NS));
    assertThat(subjects).extracting(Subject::getKind, Subject::getName, Subject::getNamespace)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("ServiceAccount", PREFIX + "sandbox-service", RenderedChart.NAMESPACE));
    assertThat(chart.named(Deployment.class, PREFIX + "sandbox-service").orElseThrow()
        .getSpec().getTemplate().getSpec().getServiceAccountName()).isEqualTo(PREFIX + "sandbox-service");
  }

  /** Creating sandbox Pods, their PVCs, an exec into them, or a NetworkPolicy (which could open a sandbox's egress). */
  private static boolean grantsSandboxPowers(List<PolicyRule> rules) {
    return rules.stream().anyMatch(rule -> rule.getVerbs().stream().anyMatch(v -> v.equals("create") || v.equals("*"))
        && rule.getResources().stream().anyMatch(r -> r.equals("pods") || r.equals("persistentvolumeclaims")
            || r.equals("pods/exec") || r.equals("networkpolicies") || r.equals("*")));
  }

  @Test
  void sandboxNetworkPoliciesDenyByDefaultAndAllowOnlyWhatIsDescribed() {
    RenderedChart chart = RenderedChart.render(Map.of("work.networkPolicy.blockedEgressCidrs", List.of("203.0.113.0/24")));
    // The release's own (sandbox-mirror's and the S3 server's, in the release namespace) are checked below.
    List<NetworkPolicy> policies = chart.all(NetworkPolicy.class).stream()
        .filter(p -> !p.getMetadata().getName().startsWith(PREFIX)).toList();
    assertThat(policies).allSatisfy(p -> assertThat(p.getMetadata().getNamespace()).isEqualTo(SANDBOX_NS));

    NetworkPolicy deny = chart.named(NetworkPolicy.class, "sandbox-default-deny").orElseThrow();
    assertThat(deny.getSpec().getPodSelector().getMatchLabels()).isNullOrEmpty();
    assertThat(deny.getSpec().getPodSelector().getMatchExpressions()).isNullOrEmpty();
    assertThat(deny.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    assertThat(deny.getSpec().getIngress()).isNullOrEmpty();
    assertThat(deny.getSpec().getEgress()).isNullOrEmpty();

    // Ingress: any policy that lets something in admits only preview-proxy and sandbox-service of this release.
    List<NetworkPolicyPeer> from = policies.stream().flatMap(p -> p.getSpec().getIngress().stream())
        .flatMap(rule -> rule.getFrom().stream()).toList();
    assertThat(from).isNotEmpty().allSatisfy(peer -> {
      assertThat(peer.getIpBlock()).isNull();
      assertThat(peer.getNamespaceSelector().getMatchLabels())
          .containsExactly(Map.entry("kubernetes.io/metadata.name", RenderedChart.NAMESPACE));
      var components = peer.getPodSelector().getMatchExpressions().stream()
          .filter(e -> e.getKey().equals("app.kubernetes.io/component")).findFirst().orElseThrow();
      assertThat(components.getOperator()).isEqualTo("In");
      assertThat(components.getValues()).containsExactlyInAnyOrder("preview-proxy-service", "sandbox-service");
    });

    // Egress: only network-enabled Pods, to 0.0.0.0/0 minus private, link-local, shared and the blocked ranges.
    List<NetworkPolicy> egress = policies.stream().filter(p -> !p.getSpec().getEgress().isEmpty()).toList();
    assertThat(egress).singleElement().satisfies(p ->
        assertThat(p.getSpec().getPodSelector().getMatchLabels()).containsExactly(Map.entry("workcell.dev/network", "enabled")));
    List<NetworkPolicyEgressRule> rules = egress.getFirst().getSpec().getEgress();
    List<NetworkPolicyPeer> ipPeers = rules.stream().flatMap(r -> r.getTo().stream()).filter(p -> p.getIpBlock() != null).toList();
    assertThat(ipPeers).singleElement().satisfies(peer -> {
      assertThat(peer.getIpBlock().getCidr()).isEqualTo("0.0.0.0/0");
      assertThat(peer.getIpBlock().getExcept()).containsAll(PRIVATE_RANGES).contains("203.0.113.0/24");
    });
    // Allowlisted sandboxes get their NetworkPolicy from sandbox-service's driver, with the same blocked ranges and DNS.
    assertThat(env(chart, "sandbox-service")).containsEntry("WORKCELL_KUBERNETES_BLOCKED_EGRESS_CIDRS", "203.0.113.0/24")
        .containsEntry("WORKCELL_KUBERNETES_ALLOW_CLUSTER_DNS", "true");
    assertThat(chart.named(Role.class, PREFIX + "sandbox-driver").orElseThrow().getRules())
        .anySatisfy(rule -> {
          assertThat(rule.getApiGroups()).containsExactly("networking.k8s.io");
          assertThat(rule.getResources()).containsExactly("networkpolicies");
          assertThat(rule.getVerbs()).contains("create", "delete");
        });
    // The one way into the cluster: DNS on port 53 of kube-dns.
    rules.stream().filter(r -> r.getTo().stream().allMatch(p -> p.getIpBlock() == null)).forEach(rule -> {
      assertThat(rule.getPorts()).allSatisfy(port -> assertThat(port.getPort().getIntVal()).isEqualTo(53));
      assertThat(rule.getTo()).allSatisfy(peer -> assertThat(peer.getPodSelector().getMatchLabels())
          .containsExactly(Map.entry("k8s-app", "kube-dns")));
    });
  }

  @Test
  void workDisabledLeavesOutTheSandboxNamespaceAndItsPolicies() {
    RenderedChart chart = RenderedChart.render(Map.of("work.enabled", false));
    assertThat(chart.all(Namespace.class)).isEmpty();
    assertThat(chart.all(NetworkPolicy.class)).isEmpty();
    assertThat(chart.all(RoleBinding.class)).isEmpty();
    RenderedChart on = RenderedChart.render(Map.of());
    assertThat(on.all(Namespace.class)).extracting(n -> n.getMetadata().getName()).containsExactly(SANDBOX_NS);
    Map<String, String> env = env(on, "sandbox-service");
    assertThat(env).containsEntry("WORK_RUNTIME_BACKEND", "kubernetes").containsEntry("WORK_K8S_NAMESPACE", SANDBOX_NS)
        .containsKeys("WORK_K8S_STORAGE_CLASS", "WORK_K8S_WORKSPACE_SIZE", "WORK_K8S_POD_READY_TIMEOUT_MS",
            "WORK_K8S_POD_GONE_TIMEOUT_MS")
        .containsEntry("WORKCELL_KUBERNETES_NETWORK_LABEL", "workcell.dev/network=enabled");
    // The driver labels network-enabled Pods with the label the egress NetworkPolicy selects.
    RenderedChart relabelled = RenderedChart.render(Map.of("work.networkPolicy.networkEnabledLabel.key", "example.com/net"));
    assertThat(env(relabelled, "sandbox-service")).containsEntry("WORKCELL_KUBERNETES_NETWORK_LABEL", "example.com/net=enabled");
    assertThat(relabelled.all(NetworkPolicy.class)).anySatisfy(policy ->
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).containsEntry("example.com/net", "enabled"));
  }

  private static final Pattern NATS_USER = Pattern.compile(
      "user: \"([^\"]+)\", password: \\$(\\w+),\\s*permissions: \\{ publish: \\{ allow: \\[(.*?)] }, subscribe: \\{ allow: \\[(.*?)] }");

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void natsUsersAreTheGeneratedGrants(String name, Map<String, Object> values) {
    RenderedChart chart = RenderedChart.render(values);
    String auth = chart.named(ConfigMap.class, PREFIX + "nats-auth").orElseThrow().getData().get("authorization.conf");
    Map<String, List<List<String>>> rendered = new HashMap<>();
    Map<String, String> passwordVars = new HashMap<>();
    Matcher m = NATS_USER.matcher(auth);
    while (m.find()) {
      rendered.put(m.group(1), List.of(subjects(m.group(3)), subjects(m.group(4))));
      passwordVars.put(m.group(1), m.group(2));
    }
    Map<String, List<List<String>>> generated = NatsPermissions.all().stream().collect(Collectors.toMap(
        g -> g.user().id(), g -> List.of(g.publish(), g.subscribe())));
    assertThat(rendered).isEqualTo(generated);
    Set<String> natsUsers = rendered.keySet();
    // Every service connects as its own user, with the password of that user from the Secret.
    String secret = (String) ((Map<String, Object>) values).getOrDefault("secrets.existingSecret", PREFIX + "secrets");
    for (Deployment deployment : chart.all(Deployment.class)) {
      List<EnvVar> env = deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getEnv();
      String user = env.stream().filter(e -> e.getName().equals("WORKCELL_NATS_USER")).findFirst().orElseThrow().getValue();
      assertThat(natsUsers).contains(user);
      var ref = env.stream().filter(e -> e.getName().equals("WORKCELL_NATS_PASSWORD")).findFirst().orElseThrow()
          .getValueFrom().getSecretKeyRef();
      assertThat(ref.getName()).isEqualTo(secret);
      assertThat(ref.getKey()).isEqualTo("nats-" + user);
    }
    if (values.containsKey("nats.external.url")) {
      assertThat(chart.all(StatefulSet.class)).noneMatch(s -> s.getMetadata().getName().endsWith("-nats"));
      assertThat(env(chart, "gateway-service")).containsEntry("WORKCELL_NATS_URL", "nats://nats.infra:4222");
      return;
    }
    // The bundled server fills each $VARIABLE from the same Secret key the service reads.
    List<EnvVar> natsEnv = chart.named(StatefulSet.class, PREFIX + "nats").orElseThrow()
        .getSpec().getTemplate().getSpec().getContainers().getFirst().getEnv();
    passwordVars.forEach((user, variable) -> assertThat(natsEnv).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo(variable);
      assertThat(e.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("nats-" + user);
      assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo(secret);
    }));
  }

  @Test
  void secretsAreGeneratedNotDefaultedAndNeverInlined() {
    Secret first = RenderedChart.render(Map.of()).named(Secret.class, PREFIX + "secrets").orElseThrow();
    Secret second = RenderedChart.render(Map.of()).named(Secret.class, PREFIX + "secrets").orElseThrow();
    assertThat(first.getData()).containsKeys("jwt-private.pem", "jwt-public.pem", "terminal-server-key", "provider-key", "preview-key",
        "pg-postgres", "pg-workcell-task", "s3-access-key", "s3-secret-key", "nats-gateway", "nats-cli");
    assertThat(first.getData().get("nats-gateway")).isNotEqualTo(second.getData().get("nats-gateway"));
    assertThat(first.getMetadata().getAnnotations()).containsEntry("helm.sh/resource-policy", "keep");
    RenderedChart existing = RenderedChart.render(Map.of("secrets.existingSecret", "my-secrets"));
    assertThat(existing.all(Secret.class)).isEmpty();
    // No Pod spec carries a secret value: every secret env var is a reference.
    for (var template : RenderedChart.render(Map.of()).podTemplates().values()) {
      template.getSpec().getContainers().stream().flatMap(c -> c.getEnv().stream())
          .filter(e -> e.getName().matches(".*(PASSWORD|SECRET|KEY)$"))
          .forEach(e -> assertThat(e.getValue()).as(e.getName() + " is a reference or a file path")
              .satisfiesAnyOf(value -> assertThat(value).isNull(), value -> assertThat(value).startsWith("/")));
    }
  }

  @Test
  void onlyPreviewProxyMountsThePreviewKeyAndTheGatewayRelaysPreviewsToIt() {
    RenderedChart chart = RenderedChart.render(Map.of());
    chart.podTemplates().forEach((name, template) -> {
      boolean mounts = template.getSpec().getVolumes().stream().filter(v -> v.getSecret() != null)
          .flatMap(v -> v.getSecret().getItems() == null ? java.util.stream.Stream.empty() : v.getSecret().getItems().stream())
          .anyMatch(item -> item.getKey().equals("preview-key"));
      assertThat(mounts).as(name + " mounts preview-key").isEqualTo(name.endsWith("preview-proxy-service"));
    });
    assertThat(env(chart, "preview-proxy-service")).containsEntry("WORKCELL_PREVIEW_KEY_FILE", "/run/workcell/secrets/preview-key");
    assertThat(env(chart, "gateway-service")).containsEntry("WORKCELL_PREVIEW_PROXY_URL", "http://" + PREFIX + "preview-proxy-service:8080")
        .doesNotContainKey("WORKCELL_PREVIEW_KEY_FILE");
  }

  /**
   * The chart and the compose file give each service the JVM options bin/workcell gives it
   * (bin/lib/services.sh): one that forgot an option would run, say, agent-runner with C2 and creep as
   * the soak measured (docs/limits.md).
   */
  @Test
  void everyServiceGetsTheLaunchersJvmOptionsInTheChartAndCompose() throws IOException {
    Path root = RenderedChart.CHART.resolve("../..").normalize();
    Map<String, String> launcher = new HashMap<>();
    Matcher entry = Pattern.compile("(?m)^\\s*\\[([a-z-]+)\\]=\\$\\{WORKCELL_JAVA_OPTS_[A-Z_]+:-(.*)}$")
        .matcher(Files.readString(root.resolve("bin/lib/services.sh")));
    while (entry.find()) {
      launcher.put(entry.group(1), entry.group(2));
    }
    assertThat(launcher).containsKeys("gateway-service", "agent-runner-service");
    String compose = Files.readString(root.resolve("docker/compose.yaml"));
    RenderedChart chart = RenderedChart.render(Map.of());
    for (String service : SERVICES) {
      String opts = launcher.getOrDefault(service, "");
      // The service's block of the compose file: from "  name:" to the next key at that depth.
      Matcher block = Pattern.compile("(?ms)^  " + service + ":$(.*?)(?=^  \\S|\\z)").matcher(compose);
      assertThat(block.find()).as(service + " in compose.yaml").isTrue();
      Matcher composeOpts = Pattern.compile("WORKCELL_SERVICE_JAVA_OPTS: \\$\\{WORKCELL_JAVA_OPTS_[A-Z_]+:-(.*)}").matcher(block.group(1));
      if (opts.isEmpty()) {
        assertThat(env(chart, service)).as(service).doesNotContainKey("WORKCELL_SERVICE_JAVA_OPTS");
        assertThat(composeOpts.find()).as(service + " in compose.yaml").isFalse();
      } else {
        assertThat(env(chart, service)).as(service).containsEntry("WORKCELL_SERVICE_JAVA_OPTS", opts);
        assertThat(composeOpts.find() ? composeOpts.group(1) : null).as(service + " in compose.yaml").isEqualTo(opts);
      }
    }
  }

  @Test
  void externalDatabaseReplacesTheBundledOne() {
    RenderedChart chart = RenderedChart.render(Map.of("postgresql.external.host", "pg.infra", "s3.mode", "external",
        "s3.external.endpoint", "https://s3.infra"));
    assertThat(chart.all(StatefulSet.class)).extracting(s -> s.getMetadata().getName()).containsExactly(PREFIX + "nats");
    assertThat(env(chart, "task-service")).containsEntry("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://pg.infra:5432/workcell_task");
    assertThat(env(chart, "sandbox-mirror")).containsEntry("WORKCELL_MIRROR_S3_ENDPOINT", "https://s3.infra");
  }

  @Test
  void sandboxMirrorReadsTheDisksReadOnlyHoldsTheS3IdentityAloneAndNothingReachesIt() {
    RenderedChart chart = RenderedChart.render(Map.of("mirror.disks",
        Map.of("hostPath", Map.of("path", "/var/lib/workcell/disks", "type", "Directory"))));
    PodSpec mirror = chart.named(Deployment.class, PREFIX + "sandbox-mirror").orElseThrow().getSpec().getTemplate().getSpec();
    Container container = mirror.getContainers().getFirst();
    assertThat(container.getVolumeMounts()).filteredOn(m -> m.getName().equals("disks")).singleElement().satisfies(m -> {
      assertThat(m.getReadOnly()).isTrue();
      assertThat(m.getMountPath()).isEqualTo("/var/lib/workcell/disks");
      assertThat(m.getMountPropagation()).isEqualTo("HostToContainer");
    });
    // The sandboxes' uid (their private files are readable), no token, no capability.
    assertThat(mirror.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
    assertThat(container.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
    assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(mirror.getAutomountServiceAccountToken()).isFalse();
    assertThat(env(chart, "sandbox-mirror")).containsEntry("WORKCELL_MIRROR_S3_ENDPOINT", "http://" + PREFIX + "s3:9000")
        .containsEntry("WORKCELL_MIRROR_S3_ACCESS_KEY_FILE", "/run/workcell/secrets/s3-access-key")
        .containsEntry("WORKCELL_MIRROR_INSTANCE", RenderedChart.RELEASE);
    // No other workload of the release mounts the S3 identity (the bundled server gets it as its root user).
    chart.podTemplates().forEach((owner, template) -> {
      boolean mounts = template.getSpec().getVolumes().stream().filter(v -> v.getSecret() != null)
          .flatMap(v -> v.getSecret().getItems() == null ? Stream.of("*") : v.getSecret().getItems().stream().map(i -> i.getKey()))
          .anyMatch(k -> k.startsWith("s3-") || k.equals("*"));
      assertThat(mounts).as(owner + " mounts the S3 identity").isEqualTo(owner.endsWith(PREFIX + "sandbox-mirror"));
    });
    // Nothing connects to sandbox-mirror; only sandbox-mirror connects to the bundled S3 server.
    NetworkPolicy closed = chart.named(NetworkPolicy.class, PREFIX + "sandbox-mirror").orElseThrow();
    assertThat(closed.getSpec().getPodSelector().getMatchLabels()).containsEntry("app.kubernetes.io/component", "sandbox-mirror");
    assertThat(closed.getSpec().getPolicyTypes()).containsExactly("Ingress");
    assertThat(closed.getSpec().getIngress()).isEmpty();
    NetworkPolicy s3 = chart.named(NetworkPolicy.class, PREFIX + "s3").orElseThrow();
    assertThat(s3.getSpec().getIngress()).singleElement().satisfies(rule -> assertThat(rule.getFrom()).singleElement()
        .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels()).containsEntry("app.kubernetes.io/component", "sandbox-mirror")));

    // An operator's own Secret supplies endpoint, bucket and credentials; none is a value in the Pod spec.
    RenderedChart own = RenderedChart.render(Map.of("s3.mode", "external", "s3.external.existingSecret", "my-s3"));
    Container external = own.named(Deployment.class, PREFIX + "sandbox-mirror").orElseThrow().getSpec().getTemplate().getSpec()
        .getContainers().getFirst();
    assertThat(external.getEnv()).filteredOn(e -> e.getName().equals("WORKCELL_MIRROR_S3_ENDPOINT") || e.getName().equals("WORKCELL_MIRROR_S3_BUCKET"))
        .hasSize(2).allSatisfy(e -> assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("my-s3"));
    assertThat(own.named(Deployment.class, PREFIX + "sandbox-mirror").orElseThrow().getSpec().getTemplate().getSpec().getVolumes())
        .filteredOn(v -> v.getName().equals("secrets")).singleElement()
        .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("my-s3"));
    assertThat(own.all(NetworkPolicy.class)).extracting(n -> n.getMetadata().getName()).doesNotContain(PREFIX + "s3");
  }

  private static Map<String, String> env(RenderedChart chart, String service) {
    return chart.named(Deployment.class, PREFIX + service).orElseThrow().getSpec().getTemplate().getSpec()
        .getContainers().getFirst().getEnv().stream().filter(e -> e.getValue() != null)
        .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
  }

  private static List<String> subjects(String list) {
    return Arrays.stream(list.split(", ")).map(s -> s.substring(1, s.length() - 1)).toList();
  }
}
