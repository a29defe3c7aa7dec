package dev.workcell.sandbox.config;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Refuses to start sandbox-service on a bad setting, naming the property, its WORK_* alias and the
 * value, rather than failing later on the first sandbox. WORK_RUNTIME_DNS is the exception the seed
 * asks for: entries that are not addresses are dropped with a warning, the others are used.
 */
@ApplicationScoped
public class SandboxSettingsValidator {

  private static final Pattern IMAGE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}");
  private static final Pattern NETWORK_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");
  private static final Pattern INSTANCE = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,62}");
  private static final Pattern HOST_NAME =
      Pattern.compile("(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");

  void check(@Observes @Priority(1) StartupEvent event, SandboxSettings settings, DockerSettings docker) {
    for (String warning : warnings(settings)) {
      Log.warn(warning);
    }
    List<String> problems = problems(settings);
    problems.addAll(celldProblems(settings, docker));
    refuseStartOn(problems);
  }

  /** Stops the start when there are {@code problems}, logging every one of them. */
  public static void refuseStartOn(List<String> problems) {
    if (!problems.isEmpty()) {
      String message = "sandbox-service refuses to start; fix these settings:\n  - " + String.join("\n  - ", problems);
      Log.error(message);
      throw new IllegalStateException(message);
    }
  }

  /** Every problem of {@code settings}, each naming the property, its alias and the value. */
  public static List<String> problems(SandboxSettings s) {
    List<String> problems = new ArrayList<>();
    require(problems, List.of(SandboxSettings.DOCKER, SandboxSettings.KUBERNETES).contains(s.backend()), "backend", s.backend(),
        "must be docker or kubernetes");
    require(problems, IMAGE.matcher(s.runtimeImage()).matches(), "runtime-image", s.runtimeImage(), "not an image reference");
    require(problems, s.commandTimeoutMs() >= 1_000 && s.commandTimeoutMs() <= 600_000,
        "command-timeout-ms", s.commandTimeoutMs(), "must be 1000..600000");
    require(problems, s.maxOutputChars() >= 100 && s.maxOutputChars() <= 1_000_000,
        "max-output-chars", s.maxOutputChars(), "must be 100..1000000");
    require(problems, ResourceQuantities.memoryBytes(s.memoryLimit()).orElse(0) >= ResourceQuantities.MIN_MEMORY_BYTES,
        "memory-limit", s.memoryLimit(), "must be a size such as 2g or 512m, at least 64m");
    require(problems, ResourceQuantities.nanoCpus(s.cpuLimit()).orElse(0) >= ResourceQuantities.MIN_NANO_CPUS,
        "cpu-limit", s.cpuLimit(), "must be a core count such as 2 or 0.5, at least 0.01");
    require(problems, s.cpuShares() >= 2 && s.cpuShares() <= 262_144, "cpu-shares", s.cpuShares(), "must be 2..262144 (1024 is Docker's default weight)");
    require(problems, s.memoryShare() > 0 && s.memoryShare() <= 1, "memory-share", s.memoryShare(),
        "must be a fraction of the engine's memory above 0 and at most 1, such as 0.75");
    s.memoryBudget().ifPresent(budget -> require(problems, ResourceQuantities.memoryBytes(budget).orElse(0) >= ResourceQuantities.MIN_MEMORY_BYTES,
        "memory-budget", budget, "must be a size such as 18g, at least 64m"));
    require(problems, s.pidsLimit() >= 16 && s.pidsLimit() <= 1_000_000, "pids-limit", s.pidsLimit(), "must be 16..1000000");
    require(problems, s.previewPort() >= 1 && s.previewPort() <= 65_535, "preview-port", s.previewPort(), "must be 1..65535");
    require(problems, IpLiterals.isLiteral(s.previewBind()) && !s.previewBind().equals("0.0.0.0") && !s.previewBind().equals("::"),
        "preview-bind", s.previewBind(), "must be one IP address of a host interface, never the wildcard");
    s.dockerPublishedHost().ifPresent(host -> require(problems, isPublishedHost(host), "docker-published-host", host,
        "must be a host name or one IP address, never the wildcard"));
    require(problems, NETWORK_NAME.matcher(s.networkName()).matches() && !List.of("bridge", "host", "none").contains(s.networkName()),
        "network-name", s.networkName(), "must be a Docker network name other than bridge, host or none");
    require(problems, s.runtimeIdleTimeoutMs() >= 0, "runtime-idle-timeout-ms", s.runtimeIdleTimeoutMs(), "must be 0 (off) or positive");
    require(problems, !s.releaseGrace().isNegative(), "release-grace", s.releaseGrace(), "must be 0 (never) or positive");
    require(problems, !s.evictionMinIdle().isNegative(), "eviction-min-idle", s.evictionMinIdle(), "must be 0 (at once) or positive");
    require(problems, s.maxWaitingRuns() >= 0, "max-waiting-runs", s.maxWaitingRuns(), "must be 0 or more");
    require(problems, s.maxActiveRuntimesGlobal() >= 1, "max-active-runtimes-global", s.maxActiveRuntimesGlobal(), "must be at least 1");
    require(problems, s.maxActiveRuntimesPerUser() >= 1, "max-active-runtimes-per-user", s.maxActiveRuntimesPerUser(), "must be at least 1");
    long tmp = ResourceQuantities.memoryBytes(s.tmpSize()).orElse(0);
    require(problems, tmp >= (1L << 20) && tmp <= (64L << 30), "tmp-size", s.tmpSize(), "must be a size from 1m to 64g");
    require(problems, DiskSizes.bytes(s.workspaceSize()).isPresent(), "workspace-size", s.workspaceSize(),
        "must be a size from 16m to 16t, such as 5g or 5Gi");
    require(problems, DiskSizes.bytes(s.home().workspaceSize()).isPresent(), "home.workspace-size", s.home().workspaceSize(),
        "must be a size from 16m to 16t, such as 5g or 5Gi");
    require(problems, s.disk().root().matches("/[A-Za-z0-9._/-]*") && !s.disk().root().matches(".*(^|/)\\.\\.?(/|$).*")
        && !s.disk().root().equals("/"), "disk.root", s.disk().root(), "must be an absolute host path without . or .. parts, not /");
    require(problems, INSTANCE.matcher(s.instance()).matches(), "instance", s.instance(), "must be lower-case letters, digits, '.', '_' or '-'");
    require(problems, !s.safeModeRetry().isNegative() && !s.safeModeRetry().isZero(), "safe-mode-retry", s.safeModeRetry(), "must be positive");
    require(problems, s.home().maxActive() >= 1 && s.home().maxActive() <= 10_000, "home.max-active", s.home().maxActive(),
        "must be 1..10000");
    require(problems, !s.home().idleTimeout().isNegative(), "home.idle-timeout", s.home().idleTimeout(),
        "must be 0 (never) or a positive duration such as 15m");
    return problems;
  }

  /** Problems of the celld channel, which depends on where the engine runs. */
  public static List<String> celldProblems(SandboxSettings s, DockerSettings docker) {
    List<String> problems = new ArrayList<>();
    String channel = s.celld().channel();
    require(problems, List.of("auto", "socket", "exec").contains(channel), "celld.channel", channel, "must be auto, socket or exec");
    if ("socket".equals(channel) && s.kubernetes()) {
      problems.add(WorkEnvAliases.describe("workcell.sandbox.celld.channel") + " = 'socket': the kubernetes backend reaches celld over pods/exec; use auto or exec");
    } else if ("socket".equals(channel)) {
      require(problems, CelldChannels.localEngine(docker.host()), "celld.channel", channel,
          "needs the Docker engine on this host (a unix DOCKER_HOST); use exec for " + docker.host());
    }
    if (CelldChannels.usesSocket(s, docker)) {
      String longest = CelldChannels.socketRoot(s) + "/0123456789abcdef/" + CelldChannels.SOCKET;
      require(problems, s.celld().socketDir().startsWith("/") && longest.getBytes(StandardCharsets.UTF_8).length <= 107,
          "celld.socket-dir", s.celld().socketDir(), "must be an absolute path short enough for a unix socket path (" + longest + ")");
    }
    require(problems, ResourceQuantities.memoryBytes(s.celld().queueLimit()).orElse(0) >= 64 << 10, "celld.queue-limit",
        s.celld().queueLimit(), "must be a size of at least 64k such as 4m");
    s.celld().queueTotal().ifPresent(total -> require(problems, ResourceQuantities.memoryBytes(total).orElse(0) >= 1 << 20,
        "celld.queue-total", total, "must be a size of at least 1m such as 32m"));
    return problems;
  }

  private static boolean isPublishedHost(String host) {
    if (IpLiterals.isLiteral(host)) {
      return !host.equals("0.0.0.0") && !host.equals("::");
    }
    // A dotted number that is not an address (300.1.1.1) is a typo, not a name.
    return HOST_NAME.matcher(host).matches() && !host.matches("[0-9.]+");
  }

  /** Settings that are used in part: each names what was dropped and why. */
  public static List<String> warnings(SandboxSettings s) {
    List<String> warnings = new ArrayList<>();
    s.runtimeDns().map(SandboxSettingsValidator::rejectedDnsEntries).filter(rejected -> !rejected.isEmpty()).ifPresent(rejected ->
        warnings.add(WorkEnvAliases.describe("workcell.sandbox.runtime-dns") + ": ignoring "
            + rejected.stream().map(e -> "'" + e + "'").collect(Collectors.joining(", "))
            + " (not IPv4/IPv6 address literals); the resolvers used are " + dnsEntries(s.runtimeDns().get())));
    return warnings;
  }

  /**
   * The resolvers of a comma-separated WORK_RUNTIME_DNS value: its IPv4/IPv6 literals. Anything else
   * is dropped (and logged at start), so the value can never become another Docker option.
   */
  public static List<String> dnsEntries(String value) {
    return splitDns(value).filter(IpLiterals::isLiteral).toList();
  }

  /** The entries of a WORK_RUNTIME_DNS value that are not address literals. */
  public static List<String> rejectedDnsEntries(String value) {
    return splitDns(value).filter(e -> !IpLiterals.isLiteral(e)).toList();
  }

  private static Stream<String> splitDns(String value) {
    return Arrays.stream(value.split(",")).map(String::trim).filter(e -> !e.isEmpty());
  }

  private static void require(List<String> problems, boolean ok, String name, Object value, String rule) {
    if (!ok) {
      problems.add(WorkEnvAliases.describe("workcell.sandbox." + name) + " = '" + value + "': " + rule);
    }
  }
}
