package dev.workcell.sandbox.kubernetes.config;

import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.config.SandboxSettingsValidator;
import dev.workcell.sandbox.config.WorkEnvAliases;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Refuses to start the kubernetes backend on a bad WORK_K8S_* setting, naming the property and its alias. */
@ApplicationScoped
public class KubernetesSettingsValidator {

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern LABEL_KEY = Pattern.compile("([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
  private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

  void check(@Observes @Priority(2) StartupEvent event, SandboxSettings settings, KubernetesSettings k8s) {
    if (settings.kubernetes()) {
      SandboxSettingsValidator.refuseStartOn(problems(k8s));
    }
  }

  public static List<String> problems(KubernetesSettings k8s) {
    List<String> problems = new ArrayList<>();
    require(problems, DNS_LABEL.matcher(k8s.namespace()).matches(), "namespace", k8s.namespace(), "must be a namespace name (a DNS label)");
    k8s.storageClass().ifPresent(sc -> require(problems, sc.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?"), "storage-class", sc,
        "must be a StorageClass name"));
    require(problems, k8s.podReadyTimeoutMs() >= 1_000, "pod-ready-timeout-ms", k8s.podReadyTimeoutMs(), "must be at least 1000");
    require(problems, k8s.podGoneTimeoutMs() >= 1_000, "pod-gone-timeout-ms", k8s.podGoneTimeoutMs(), "must be at least 1000");
    String[] label = k8s.networkLabel().split("=", 2);
    require(problems, label.length == 2 && LABEL_KEY.matcher(label[0]).matches() && !label[1].isEmpty()
        && LABEL_VALUE.matcher(label[1]).matches(), "network-label", k8s.networkLabel(), "must be key=value, a valid label");
    for (String cidr : k8s.blockedEgressCidrs().orElse(List.of())) {
      require(problems, cidr(cidr), "blocked-egress-cidrs", cidr, "must be a CIDR such as 203.0.113.0/24");
    }
    String seccomp = k8s.seccompProfile();
    require(problems, seccomp.equals("RuntimeDefault") || seccomp.matches("Localhost/[A-Za-z0-9._/-]+") && !seccomp.contains(".."),
        "seccomp-profile", seccomp, "must be RuntimeDefault or Localhost/<path under the kubelet's seccomp directory>");
    return problems;
  }

  private static boolean cidr(String value) {
    String[] parts = value.split("/", -1);
    // Literals only (dotted IPv4 or IPv6 with ':'), so nothing here is ever looked up in DNS.
    if (parts.length != 2 || !(parts[0].matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}") || parts[0].matches("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*"))
        || !parts[1].matches("[0-9]{1,3}")) {
      return false;
    }
    try {
      int bits = InetAddress.getByName(parts[0]).getAddress().length * 8;
      return Integer.parseInt(parts[1]) <= bits;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static void require(List<String> problems, boolean ok, String name, Object value, String rule) {
    if (!ok) {
      problems.add(WorkEnvAliases.describe("workcell.kubernetes." + name) + " = '" + value + "': " + rule);
    }
  }
}
