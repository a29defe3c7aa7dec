package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.BindOptions;
import com.github.dockerjava.api.model.BindPropagation;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.VolumeOptions;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The create call of a hardened sandbox: the only place a container configuration is written. */
final class ContainerBlueprint {

  private ContainerBlueprint() {}

  static CreateContainerCmd create(DockerClient docker, SandboxSpec spec, String name, String volume, String celldVolume,
      Map<String, String> labels) {
    HostConfig host = HostConfig.newHostConfig()
        .withReadonlyRootfs(SandboxHardening.READ_ONLY_ROOT)
        .withTmpFs(Map.of(SandboxHardening.TMP, SandboxHardening.tmpOptions(spec.tmpBytes())))
        .withCapDrop(SandboxHardening.CAP_DROP.stream().map(Capability::valueOf).toArray(Capability[]::new))
        .withCapAdd(SandboxHardening.CAP_ADD.stream().map(Capability::valueOf).toArray(Capability[]::new))
        .withSecurityOpts(SandboxHardening.SECURITY_OPT)
        .withPrivileged(SandboxHardening.PRIVILEGED)
        .withInit(SandboxHardening.INIT)
        .withIpcMode(SandboxHardening.IPC_MODE)
        .withMemory(spec.memoryBytes())
        .withMemorySwap(spec.memoryBytes())
        .withNanoCPUs(spec.nanoCpus())
        .withCpuShares(spec.cpuShares())
        .withPidsLimit(spec.pidsLimit())
        .withNetworkMode(spec.networkName())
        .withMounts(mounts(spec, name, volume, celldVolume));
    CreateContainerCmd cmd = docker.createContainerCmd(spec.image())
        .withName(name)
        .withLabels(labels)
        .withUser(SandboxHardening.CONTAINER_USER)
        .withWorkingDir(spec.workdir())
        .withEntrypoint(SandboxHardening.ENTRYPOINT)
        .withHostConfig(host);
    if (spec.home()) {
      // The only variable set here; nothing of sandbox-service's own environment ever is.
      cmd.withEnv("HOME=" + spec.workdir());
    }
    if (spec.network()) {
      ExposedPort preview = ExposedPort.tcp(spec.previewPort());
      // Only the preview port, to a Docker-assigned host port on the configured (loopback) address.
      host.withPortBindings(new PortBinding(Ports.Binding.bindIp(spec.previewBind()), preview));
      host.withDns(spec.dns());
      cmd.withExposedPorts(preview);
    }
    return cmd;
  }

  /**
   * The workspace volume (or the task's checked host folder, bound read-write with private propagation:
   * decision 0023), celld's volume read-only (never copied up from the workload image), and (socket
   * channel) the sandbox's own celld socket directory, read-only.
   */
  private static List<Mount> mounts(SandboxSpec spec, String name, String volume, String celldVolume) {
    List<Mount> mounts = new ArrayList<>();
    mounts.add(spec.onHostFolder()
        ? new Mount().withType(MountType.BIND).withSource(spec.hostFolder()).withTarget(spec.workdir())
            .withBindOptions(new BindOptions().withPropagation(BindPropagation.R_PRIVATE))
        : new Mount().withType(MountType.VOLUME).withSource(volume).withTarget(spec.workdir()));
    mounts.add(new Mount().withType(MountType.VOLUME).withSource(celldVolume).withTarget(SandboxHardening.CELLD_DIR)
        .withReadOnly(true).withVolumeOptions(new VolumeOptions().withNoCopy(true)));
    spec.celldSocketDir(name).ifPresent(dir -> mounts.add(new Mount().withType(MountType.BIND).withSource(dir.toString())
        .withTarget(SandboxHardening.CELLD_MOUNT).withReadOnly(true)
        .withBindOptions(new BindOptions().withPropagation(BindPropagation.R_PRIVATE))));
    return mounts;
  }
}
