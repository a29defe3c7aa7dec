package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.ContainerConfig;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Ports;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxSpec;
import dev.workcell.sandbox.runtime.SeccompProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Compares what {@code docker inspect} reports for a sandbox with the hardening profile and its
 * spec, property by property. Every difference is named, so a log line says what drifted.
 */
final class HardeningCheck {

  private HardeningCheck() {}

  static List<String> drift(InspectContainerResponse inspect, SandboxSpec spec, String volume, String celldVolume,
      String currentImageId) {
    List<String> drift = new ArrayList<>();
    ContainerConfig config = inspect.getConfig();
    HostConfig host = inspect.getHostConfig();
    if (config == null || host == null) {
      return List.of("inspect returned no configuration");
    }
    Map<String, String> labels = config.getLabels() == null ? Map.of() : config.getLabels();
    expect(drift, "label " + SandboxLabels.MANAGED, "true", labels.get(SandboxLabels.MANAGED));
    expect(drift, "label " + SandboxLabels.POLICY_HASH, spec.hash(), labels.get(SandboxLabels.POLICY_HASH));
    expect(drift, "user", SandboxHardening.CONTAINER_USER, config.getUser());
    expect(drift, "working dir", spec.workdir(), config.getWorkingDir());
    if (spec.home()) {
      expect(drift, "env HOME", true, list(config.getEnv()).contains("HOME=" + spec.workdir()));
    }
    expect(drift, "entrypoint", SandboxHardening.ENTRYPOINT, list(config.getEntrypoint()));
    expect(drift, "read-only root", true, host.getReadonlyRootfs());
    expect(drift, "tmpfs", Map.of(SandboxHardening.TMP, SandboxHardening.tmpOptions(spec.tmpBytes())), orEmpty(host.getTmpFs()));
    expect(drift, "cap-drop", SandboxHardening.CAP_DROP, caps(host.getCapDrop()));
    expect(drift, "cap-add", SandboxHardening.CAP_ADD.stream().sorted().toList(), caps(host.getCapAdd()));
    expect(drift, "security-opt", named(SandboxHardening.SECURITY_OPT), named(orEmpty(host.getSecurityOpts())));
    expect(drift, "privileged", SandboxHardening.PRIVILEGED, Boolean.TRUE.equals(host.getPrivileged()));
    expect(drift, "init", SandboxHardening.INIT, Boolean.TRUE.equals(host.getInit()));
    expect(drift, "ipc mode", SandboxHardening.IPC_MODE, host.getIpcMode());
    expect(drift, "pid mode", "", blank(host.getPidMode()));
    expect(drift, "userns mode", "", blank(host.getUsernsMode()));
    expect(drift, "devices", 0, host.getDevices() == null ? 0 : host.getDevices().length);
    expect(drift, "binds", 0, host.getBinds() == null ? 0 : host.getBinds().length);
    expect(drift, "volumes-from", 0, host.getVolumesFrom() == null ? 0 : host.getVolumesFrom().length);
    expect(drift, "memory", spec.memoryBytes(), host.getMemory());
    expect(drift, "memory-swap", spec.memoryBytes(), host.getMemorySwap());
    expect(drift, "nano cpus", spec.nanoCpus(), host.getNanoCPUs() == null ? 0L : host.getNanoCPUs());
    expect(drift, "cpu shares", spec.cpuShares(), host.getCpuShares() == null ? 0 : host.getCpuShares());
    expect(drift, "pids limit", spec.pidsLimit(), host.getPidsLimit());
    expect(drift, "network mode", spec.networkName(), host.getNetworkMode());
    expect(drift, "dns", spec.dns(), list(host.getDns()));
    expect(drift, "publish all", false, Boolean.TRUE.equals(host.getPublishAllPorts()));
    expect(drift, "port bindings", expectedPorts(spec), ports(host.getPortBindings()));
    expect(drift, "mounts", expectedMounts(spec, inspect.getName(), volume, celldVolume), mounts(inspect));
    if (inspect.getNetworkSettings() != null && inspect.getNetworkSettings().getNetworks() != null) {
      expect(drift, "networks", Set.of(spec.networkName()), inspect.getNetworkSettings().getNetworks().keySet());
    }
    if (currentImageId != null) {
      expect(drift, "image", currentImageId, inspect.getImageId());
    }
    return drift;
  }

  private static void expect(List<String> drift, String property, Object expected, Object actual) {
    if (!Objects.equals(expected, actual)) {
      drift.add(property + ": expected " + expected + ", found " + actual);
    }
  }

  private static List<String> expectedPorts(SandboxSpec spec) {
    return spec.network() ? List.of(spec.previewPort() + "/tcp->" + spec.previewBind() + ":") : List.of();
  }

  private static List<String> ports(Ports ports) {
    if (ports == null || ports.getBindings() == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<ExposedPort, Ports.Binding[]> entry : ports.getBindings().entrySet()) {
      Ports.Binding[] bindings = entry.getValue() == null ? new Ports.Binding[0] : entry.getValue();
      for (Ports.Binding binding : bindings) {
        out.add(entry.getKey().getPort() + "/" + entry.getKey().getProtocol() + "->" + blank(binding.getHostIp()) + ":"
            + blank(binding.getHostPortSpec()));
      }
    }
    return out.stream().sorted().toList();
  }

  /** The celld volume is the one of the current celld: a sandbox of an older build drifts. */
  private static List<String> expectedMounts(SandboxSpec spec, String name, String volume, String celldVolume) {
    List<String> mounts = new ArrayList<>();
    mounts.add((spec.onHostFolder() ? spec.hostFolder() : volume) + "->" + spec.workdir() + ":rw");
    mounts.add(celldVolume + "->" + SandboxHardening.CELLD_DIR + ":ro");
    spec.celldSocketDir(containerName(name)).ifPresent(dir -> mounts.add(dir + "->" + SandboxHardening.CELLD_MOUNT + ":ro"));
    return mounts.stream().sorted().toList();
  }

  /** A volume by name, a bind mount by its host path; then where it is mounted and how. */
  private static List<String> mounts(InspectContainerResponse inspect) {
    if (inspect.getMounts() == null) {
      return List.of();
    }
    return inspect.getMounts().stream()
        .map(m -> (m.getName() != null ? m.getName() : m.getSource()) + "->"
            + (m.getDestination() == null ? null : m.getDestination().getPath()) + (Boolean.TRUE.equals(m.getRW()) ? ":rw" : ":ro"))
        .sorted().toList();
  }

  /** Inspect names containers with a leading slash. */
  private static String containerName(String inspected) {
    return inspected != null && inspected.startsWith("/") ? inspected.substring(1) : inspected;
  }

  /** A seccomp profile is compared by its hash, so a drift line names it instead of printing 9 kB of JSON. */
  private static List<String> named(List<String> securityOpts) {
    return securityOpts.stream().map(opt -> opt.startsWith("seccomp=") ? "seccomp=sha256:" + SeccompProfile.sha256(opt) : opt).toList();
  }

  private static List<String> caps(Capability[] caps) {
    return caps == null ? List.of() : Arrays.stream(caps).map(Capability::name).sorted().toList();
  }

  private static List<String> list(String[] values) {
    return values == null ? List.of() : Arrays.asList(values);
  }

  private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }

  private static List<String> orEmpty(List<String> list) {
    return list == null ? List.of() : list;
  }

  private static String blank(String value) {
    return value == null ? "" : value;
  }
}
