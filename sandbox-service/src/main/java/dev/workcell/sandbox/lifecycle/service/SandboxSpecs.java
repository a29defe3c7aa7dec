package dev.workcell.sandbox.lifecycle.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.CelldChannels;
import dev.workcell.sandbox.config.DockerSettings;
import dev.workcell.sandbox.config.ResourceQuantities;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.config.SandboxSettingsValidator;
import dev.workcell.sandbox.egress.EgressNetwork;
import dev.workcell.sandbox.hostfolder.service.HostFolderGuard;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxPolicy;
import dev.workcell.sandbox.runtime.SandboxSpec;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Resolves a runtime policy over the global settings into the {@link SandboxSpec} a sandbox runs with. */
@ApplicationScoped
public class SandboxSpecs {

  private static final Pattern IMAGE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}");

  private final SandboxSettings settings;
  private final ObjectMapper json;
  private final String celldSocketRoot;
  private final SandboxDriver driver;
  private final HostFolderGuard hostFolders;

  public SandboxSpecs(SandboxSettings settings, DockerSettings docker, ObjectMapper json, SandboxDriver driver,
      HostFolderGuard hostFolders) {
    this.settings = settings;
    this.hostFolders = hostFolders;
    this.driver = driver;
    this.json = json;
    this.celldSocketRoot = CelldChannels.usesSocket(settings, docker) ? CelldChannels.socketRoot(settings) : "";
  }

  /** The spec of a sandbox whose volume is mounted at {@code workdir}. */
  public SandboxSpec resolve(SandboxPolicy policy, String workdir) {
    SandboxPolicy p = policy == null ? SandboxPolicy.defaults() : policy;
    String image = p.image() == null ? settings.runtimeImage() : p.image();
    if (!IMAGE.matcher(image).matches()) {
      throw invalid("policy image is not an image reference");
    }
    long memory = p.memory() == null
        ? ResourceQuantities.memoryBytes(settings.memoryLimit()).orElseThrow()
        : ResourceQuantities.memoryBytes(p.memory()).orElseThrow(() -> invalid("policy memory must be a size such as 2g or 512m"));
    if (memory < ResourceQuantities.MIN_MEMORY_BYTES) {
      throw invalid("policy memory must be at least 64m");
    }
    long nanoCpus = p.cpus() == null
        ? ResourceQuantities.nanoCpus(settings.cpuLimit()).orElseThrow()
        : ResourceQuantities.nanoCpus(p.cpus()).orElseThrow(() -> invalid("policy cpus must be a core count such as 2 or 0.5"));
    if (nanoCpus < ResourceQuantities.MIN_NANO_CPUS) {
      throw invalid("policy cpus must be at least 0.01");
    }
    nanoCpus = cpuCeiling(nanoCpus);
    long pids = p.pidsLimit() == null ? settings.pidsLimit() : p.pidsLimit();
    if (pids < 16 || pids > 1_000_000) {
      throw invalid("policy pidsLimit must be 16..1000000");
    }
    boolean network = p.network() == null || p.network();
    long tmp = ResourceQuantities.memoryBytes(settings.tmpSize()).orElseThrow();
    // An egress allowlist puts the sandbox on the internal egress network: no route out and no
    // resolver for outside names; only the egress proxy on its gateway (decision 0012).
    boolean egress = network && p.egressAllowlist() != null;
    List<String> dns = network && !egress ? settings.runtimeDns().map(SandboxSettingsValidator::dnsEntries).orElse(List.of()) : List.of();
    // A host folder is checked again every time a container is made or verified with it: the folder may
    // be a link to elsewhere by now, or the deployment may have turned host folders off (decision 0023).
    String hostFolder = p.hostFolder() == null ? "" : hostFolders.recheck(p.hostFolder()).toString();
    return new SandboxSpec(image, memory, nanoCpus, settings.cpuShares(), pids, tmp, network,
        network ? (egress ? EgressNetwork.name(settings) : settings.networkName()) : "none", dns,
        network ? settings.previewPort() : 0, network ? settings.previewBind() : "", workdir, celldSocketRoot, hostFolder);
  }

  /**
   * A cpu limit at or above the host's cores is no limit at all (and the engine refuses one above
   * them), so it is dropped: the sandbox's weight shares the host. Below them it stays a ceiling.
   */
  private long cpuCeiling(long nanoCpus) {
    long hostNanoCpus = driver.hostResources().cpus() * 1_000_000_000L;
    return nanoCpus < hostNanoCpus ? nanoCpus : 0;
  }

  /** The socket directory the sandbox named {@code container} has or had; empty on the exec channel. */
  public Optional<Path> celldSocketDir(String container) {
    return SandboxSpec.celldSocketDir(celldSocketRoot, container);
  }

  /** The policy as stored in the sandbox's policy label. */
  public String encode(SandboxPolicy policy) {
    try {
      return json.writeValueAsString(policy == null ? SandboxPolicy.defaults() : policy);
    } catch (JsonProcessingException e) {
      throw new WorkcellException(ErrorCode.INTERNAL, "cannot encode the policy label", e);
    }
  }

  /** The policy of a policy label; a label that does not parse yields the defaults (and so, drift). */
  public SandboxPolicy decode(String label) {
    if (label == null || label.isBlank()) {
      return SandboxPolicy.defaults();
    }
    try {
      SandboxPolicy policy = json.readValue(label, SandboxPolicy.class);
      return policy == null ? SandboxPolicy.defaults() : policy;
    } catch (JsonProcessingException e) {
      Log.warnf("unreadable policy label, using the defaults: %s", e.getOriginalMessage());
      return SandboxPolicy.defaults();
    }
  }

  private static WorkcellException invalid(String message) {
    return new WorkcellException(ErrorCode.INVALID_REQUEST, message);
  }
}
