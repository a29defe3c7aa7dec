package dev.workcell.sandbox.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Bad settings are named with their WORK_* alias; good ones pass. */
class SandboxSettingsValidatorTest {

  @Test
  void theDefaultsAreValid() {
    assertThat(SandboxSettingsValidator.problems(settings(Map.of()))).isEmpty();
  }

  @Test
  void dnsEntriesThatAreNotAddressesAreDroppedWithAWarningAndTheRestUsed() {
    SandboxSettings good = settings(Map.of("dns", "1.1.1.1, 2606:4700:4700::1111"));
    assertThat(SandboxSettingsValidator.problems(good)).isEmpty();
    assertThat(SandboxSettingsValidator.warnings(good)).isEmpty();
    assertThat(SandboxSettingsValidator.dnsEntries("1.1.1.1, 2606:4700:4700::1111")).containsExactly("1.1.1.1", "2606:4700:4700::1111");

    String mixed = "1.1.1.1,resolver.example,--dns=8.8.8.8,300.1.1.1, 9.9.9.9";
    SandboxSettings bad = settings(Map.of("dns", mixed));
    assertThat(SandboxSettingsValidator.problems(bad)).isEmpty(); // the service starts
    assertThat(SandboxSettingsValidator.dnsEntries(mixed)).containsExactly("1.1.1.1", "9.9.9.9");
    assertThat(SandboxSettingsValidator.warnings(bad)).singleElement().asString()
        .contains("WORK_RUNTIME_DNS").contains("'resolver.example', '--dns=8.8.8.8', '300.1.1.1'").contains("[1.1.1.1, 9.9.9.9]");
  }

  @Test
  void theBackendIsDockerOrKubernetesAndKubernetesNeverUsesTheSocketChannel() {
    assertThat(SandboxSettingsValidator.problems(settings(Map.of("backend", "kubernetes")))).isEmpty();
    assertThat(String.join("\n", SandboxSettingsValidator.problems(settings(Map.of("backend", "podman"))))).contains("WORK_RUNTIME_BACKEND");
    DockerSettings unixEngine = () -> "unix:///var/run/docker.sock";
    assertThat(CelldChannels.usesSocket(settings(Map.of()), unixEngine)).isTrue();
    assertThat(CelldChannels.usesSocket(settings(Map.of("backend", "kubernetes")), unixEngine)).isFalse();
    assertThat(String.join("\n", SandboxSettingsValidator.celldProblems(settings(Map.of("backend", "kubernetes", "channel", "socket")), unixEngine)))
        .contains("pods/exec");
  }

  @Test
  void onKubernetesTheWorkspaceSizeIsReadFromWorkK8sWorkspaceSizeFirst() {
    Map<String, String> env = Map.of("WORK_WORKSPACE_SIZE", "5g", "WORK_K8S_WORKSPACE_SIZE", "10Gi");
    assertThat(new WorkEnvAliases(env::get).getValue("workcell.sandbox.workspace-size")).isEqualTo("5g");
    Map<String, String> k8s = new java.util.HashMap<>(env);
    k8s.put("WORK_RUNTIME_BACKEND", "kubernetes");
    assertThat(new WorkEnvAliases(k8s::get).getValue("workcell.sandbox.workspace-size")).isEqualTo("10Gi");
    assertThat(new WorkEnvAliases(k8s::get).getValue("workcell.kubernetes.namespace")).isNull();
  }

  @Test
  void thePublishedHostIsAHostNameOrOneAddress() {
    for (String host : List.of("host.docker.internal", "localhost", "172.17.0.1", "::1")) {
      assertThat(SandboxSettingsValidator.problems(settings(Map.of("publishedHost", host)))).as(host).isEmpty();
    }
    for (String host : List.of("0.0.0.0", "::", "300.1.1.1", "-x.example", "host name", "a/b", "x".repeat(64))) {
      assertThat(String.join("\n", SandboxSettingsValidator.problems(settings(Map.of("publishedHost", host))))).as(host)
          .contains("WORK_DOCKER_PUBLISHED_HOST");
    }
    var aliases = new WorkEnvAliases(Map.of("WORK_DOCKER_PUBLISHED_HOST", "host.docker.internal")::get);
    assertThat(aliases.getValue("workcell.sandbox.docker-published-host")).isEqualTo("host.docker.internal");
  }

  /** Seed 004's host-folder variables; its roots are ':'-separated, the property's list ','. */
  @Test
  void hostWorkspaceNamesAliasTheHostFolderSettings() {
    var aliases = new WorkEnvAliases(Map.of("WORK_HOST_WORKSPACES_ENABLED", "true",
        "WORK_HOST_WORKSPACE_ROOTS", "/Users/you/Projects:/srv/work")::get);
    assertThat(aliases.getValue("workcell.sandbox.host-folders.enabled")).isEqualTo("true");
    assertThat(aliases.getValue("workcell.sandbox.host-folders.roots")).isEqualTo("/Users/you/Projects,/srv/work");
  }

  /**
   * Quarkus records what non-environment sources say during the build as the built application's
   * defaults: as a plain ConfigSource, a WORK_HOST_WORKSPACES_ENABLED=true in the shell that ran Maven
   * left host folders on in every later start of that build. An environment source is not recorded.
   */
  @Test
  void theAliasesAreAnEnvironmentSourceSoABuildNeverRecordsThem() {
    assertThat(new WorkEnvAliases(Map.of("WORK_HOST_WORKSPACES_ENABLED", "true")::get))
        .isInstanceOf(io.smallrye.config.EnvConfigSource.class);
  }

  @Test
  void malformedLimitsAreRefused() {
    List<String> problems = SandboxSettingsValidator.problems(settings(Map.of(
        "memory", "lots", "cpu", "-1", "pids", "0", "port", "70000", "bind", "0.0.0.0", "network", "host", "global", "0")));
    assertThat(String.join("\n", problems))
        .contains("WORK_MEMORY_LIMIT").contains("WORK_CPU_LIMIT").contains("WORK_PIDS_LIMIT").contains("WORK_PREVIEW_PORT")
        .contains("WORK_PREVIEW_BIND").contains("WORK_NETWORK_NAME").contains("WORK_MAX_ACTIVE_RUNTIMES_GLOBAL");
  }

  @Test
  void theMemoryBudgetAndCpuWeightAreChecked() {
    assertThat(SandboxSettingsValidator.problems(settings(Map.of("memoryShare", "1", "memoryBudget", "18g", "cpuShares", "512")))).isEmpty();
    List<String> problems = SandboxSettingsValidator.problems(settings(Map.of("memoryShare", "1.5", "memoryBudget", "lots", "cpuShares", "1")));
    assertThat(String.join("\n", problems))
        .contains("workcell.sandbox.memory-share = '1.5'").contains("workcell.sandbox.memory-budget = 'lots'")
        .contains("workcell.sandbox.cpu-shares = '1'");
    assertThat(SandboxSettingsValidator.problems(settings(Map.of("memoryShare", "0")))).hasSize(1);
  }

  @Test
  void homeAdmissionSettingsAreChecked() {
    assertThat(SandboxSettingsValidator.problems(settings(Map.of("homes", "1", "homeIdle", "PT0S")))).isEmpty();
    List<String> problems = SandboxSettingsValidator.problems(settings(Map.of("homes", "0", "homeIdle", "-PT1M")));
    assertThat(problems).hasSize(2);
    assertThat(String.join("\n", problems))
        .contains("workcell.sandbox.home.max-active = '0': must be 1..10000")
        .contains("workcell.sandbox.home.idle-timeout = 'PT-1M'");
  }

  @Test
  void celldsRequestQueueNeedsSizes() {
    DockerSettings local = () -> "unix:///var/run/docker.sock";
    assertThat(String.join("\n", SandboxSettingsValidator.celldProblems(settings(Map.of("queueLimit", "4 m", "queueTotal", "1k")), local)))
        .contains("workcell.sandbox.celld.queue-limit = '4 m'").contains("workcell.sandbox.celld.queue-total = '1k'");
    assertThat(SandboxSettingsValidator.celldProblems(settings(Map.of("queueLimit", "2m", "queueTotal", "64m")), local)).isEmpty();
  }

  @Test
  void theCelldSocketNeedsALocalEngineAndAShortPath() {
    DockerSettings local = () -> "unix:///var/run/docker.sock";
    DockerSettings remote = () -> "tcp://127.0.0.1:2375";
    assertThat(SandboxSettingsValidator.celldProblems(settings(Map.of()), local)).isEmpty();
    assertThat(SandboxSettingsValidator.celldProblems(settings(Map.of()), remote)).isEmpty(); // auto falls back to exec
    assertThat(String.join("\n", SandboxSettingsValidator.celldProblems(settings(Map.of("channel", "socket")), remote)))
        .contains("workcell.sandbox.celld.channel = 'socket'").contains("use exec for tcp://127.0.0.1:2375");
    assertThat(String.join("\n", SandboxSettingsValidator.celldProblems(settings(Map.of("channel", "pipe")), local)))
        .contains("must be auto, socket or exec");
    assertThat(String.join("\n", SandboxSettingsValidator.celldProblems(settings(Map.of("socketDir", "/" + "x".repeat(90))), local)))
        .contains("workcell.sandbox.celld.socket-dir").contains("short enough");
    assertThat(CelldChannels.usesSocket(settings(Map.of()), local)).isTrue();
    assertThat(CelldChannels.usesSocket(settings(Map.of()), remote)).isFalse();
    assertThat(CelldChannels.usesSocket(settings(Map.of("channel", "exec")), local)).isFalse();
  }

  @Test
  void workNamesAliasTheProperties() {
    var aliases = new WorkEnvAliases(Map.of("WORK_RUNTIME_IMAGE", "example/image:1", "WORK_CPU_LIMIT", "1.5")::get);
    assertThat(aliases.getValue("workcell.sandbox.runtime-image")).isEqualTo("example/image:1");
    assertThat(aliases.getValue("workcell.sandbox.cpu-limit")).isEqualTo("1.5");
    assertThat(aliases.getValue("workcell.sandbox.memory-limit")).isNull();
    assertThat(aliases.getPropertyNames()).containsExactlyInAnyOrder("workcell.sandbox.runtime-image", "workcell.sandbox.cpu-limit");
    assertThat(aliases.getOrdinal()).isBetween(251, 299);
  }

  @Test
  void quantitiesParseLikeTheDockerCli() {
    assertThat(ResourceQuantities.memoryBytes("2g")).hasValue(2L << 30);
    assertThat(ResourceQuantities.memoryBytes("512M")).hasValue(512L << 20);
    assertThat(ResourceQuantities.memoryBytes("2 g")).isEmpty();
    assertThat(ResourceQuantities.nanoCpus("1.5")).hasValue(1_500_000_000L);
    assertThat(ResourceQuantities.nanoCpus("1e3")).isEmpty();
  }

  @Test
  void workspaceSizesAreBinaryAndBounded() {
    assertThat(DiskSizes.bytes("5g")).hasValue(5L << 30);
    assertThat(DiskSizes.bytes("5Gi")).hasValue(5L << 30);
    assertThat(DiskSizes.bytes("64m")).hasValue(64L << 20);
    assertThat(DiskSizes.bytes("1.5G")).hasValue(3L << 29);
    assertThat(DiskSizes.bytes("10GB")).hasValue(10L << 30);
    assertThat(DiskSizes.bytes("1m")).isEmpty();
    assertThat(DiskSizes.bytes("5i")).isEmpty();
    assertThat(DiskSizes.bytes("-5g")).isEmpty();
    assertThat(SandboxSettingsValidator.problems(settings(Map.of("workspaceSize", "4k"))))
        .singleElement().asString().contains("WORK_WORKSPACE_SIZE");
    assertThat(SandboxSettingsValidator.problems(settings(Map.of("homeWorkspaceSize", "lots")))).singleElement().asString()
        .contains("home.workspace-size");
    assertThat(SandboxSettingsValidator.problems(settings(Map.of("diskRoot", "var/disks")))).singleElement().asString()
        .contains("disk.root");
    assertThat(SandboxSettingsValidator.problems(settings(Map.of("diskRoot", "/var/../etc")))).hasSize(1);
  }

  private static SandboxSettings settings(Map<String, String> o) {
    return new SandboxSettings() {
      public String backend() { return o.getOrDefault("backend", "docker"); }
      public String runtimeImage() { return "workcell/sandbox:dev"; }
      public long commandTimeoutMs() { return 120_000; }
      public int maxOutputChars() { return 50_000; }
      public String memoryLimit() { return o.getOrDefault("memory", "2g"); }
      public String cpuLimit() { return o.getOrDefault("cpu", "2"); }
      public int cpuShares() { return Integer.parseInt(o.getOrDefault("cpuShares", "1024")); }
      public double memoryShare() { return Double.parseDouble(o.getOrDefault("memoryShare", "0.75")); }
      public Optional<String> memoryBudget() { return Optional.ofNullable(o.get("memoryBudget")); }
      public long pidsLimit() { return Long.parseLong(o.getOrDefault("pids", "256")); }
      public int previewPort() { return Integer.parseInt(o.getOrDefault("port", "4173")); }
      public String previewBind() { return o.getOrDefault("bind", "127.0.0.1"); }
      public Optional<String> dockerPublishedHost() { return Optional.ofNullable(o.get("publishedHost")); }
      public String networkName() { return o.getOrDefault("network", "workcell-sandbox"); }
      public boolean closedNetworkCheck() { return true; }
      public Optional<String> runtimeDns() { return Optional.ofNullable(o.get("dns")); }
      public long runtimeIdleTimeoutMs() { return 0; }
      public Duration releaseGrace() { return Duration.ofSeconds(3); }
      public Duration evictionMinIdle() { return Duration.ofSeconds(60); }
      public int maxWaitingRuns() { return 16; }
      public int maxActiveRuntimesGlobal() { return Integer.parseInt(o.getOrDefault("global", "3")); }
      public int maxActiveRuntimesPerUser() { return 2; }
      public String tmpSize() { return "512m"; }
      public String workspaceSize() { return o.getOrDefault("workspaceSize", "5g"); }
      public Disk disk() {
        return new Disk() {
          public boolean bounded() { return true; }
          public String root() { return o.getOrDefault("diskRoot", "/var/lib/workcell/disks"); }
          public boolean readOnlyView() { return false; }
        };
      }
      public String instance() { return "default"; }
      public Duration safeModeRetry() { return Duration.ofSeconds(10); }
      public Duration taskServiceTimeout() { return Duration.ofSeconds(5); }
      public Home home() {
        return new Home() {
          public Optional<String> egressAllowlist() { return Optional.empty(); }
          public Optional<String> image() { return Optional.empty(); }
          public boolean network() { return true; }
          public int maxActive() { return Integer.parseInt(o.getOrDefault("homes", "20")); }
          public Duration idleTimeout() { return Duration.parse(o.getOrDefault("homeIdle", "PT15M")); }
          public String workspaceSize() { return o.getOrDefault("homeWorkspaceSize", "5g"); }
        };
      }
      public Egress egress() {
        return new Egress() {
          public int proxyPort() { return 13128; }
          public Optional<String> networkName() { return Optional.empty(); }
          public Duration policyCache() { return Duration.ofSeconds(2); }
          public Optional<String> resolveOverride() { return Optional.empty(); }
          public boolean allowPrivateDestinations() { return false; }
        };
      }
      public Celld celld() {
        return new Celld() {
          public String channel() { return o.getOrDefault("channel", "auto"); }
          public String socketDir() { return o.getOrDefault("socketDir", "/run/workcell/cells"); }
          public Optional<String> image() { return Optional.empty(); }
          public String queueLimit() { return o.getOrDefault("queueLimit", "4m"); }
          public Optional<String> queueTotal() { return Optional.ofNullable(o.get("queueTotal")); }
        };
      }
    };
  }
}
