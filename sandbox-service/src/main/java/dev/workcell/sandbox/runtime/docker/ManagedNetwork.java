package dev.workcell.sandbox.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Network;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.SandboxLabels;
import io.quarkus.logging.Log;
import java.util.Map;

/**
 * The managed sandbox bridge: created with inter-container communication disabled and the managed
 * label. A same-named network lacking either is the operator's, and sandboxes never join it.
 */
final class ManagedNetwork {

  static final String ICC_OPTION = "com.docker.network.bridge.enable_icc";

  private final DockerClient docker;

  ManagedNetwork(DockerClient docker) {
    this.docker = docker;
  }

  void ensure(String name) {
    Network existing = find(name);
    if (existing == null) {
      try {
        docker.createNetworkCmd().withName(name).withDriver("bridge").withCheckDuplicate(true)
            .withOptions(Map.of(ICC_OPTION, "false"))
            .withLabels(Map.of(SandboxLabels.MANAGED, "true"))
            .exec();
        Log.infof("created managed sandbox network %s (icc disabled)", name);
        return;
      } catch (ConflictException raced) {
        existing = find(name);
        if (existing == null) {
          throw raced;
        }
      }
    }
    requireManaged(existing);
  }

  private Network find(String name) {
    try {
      Network network = docker.inspectNetworkCmd().withNetworkId(name).exec();
      // The engine also matches id prefixes; only an exact name is this network.
      return name.equals(network.getName()) ? network : null;
    } catch (NotFoundException e) {
      return null;
    }
  }

  private static void requireManaged(Network network) {
    Map<String, String> labels = network.getLabels() == null ? Map.of() : network.getLabels();
    Map<String, String> options = network.getOptions() == null ? Map.of() : network.getOptions();
    boolean managed = "true".equals(labels.get(SandboxLabels.MANAGED));
    boolean iccOff = "false".equals(options.get(ICC_OPTION));
    if (!managed || !iccOff || !"bridge".equals(network.getDriver())) {
      throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "network " + network.getName()
          + " exists but is not a managed sandbox bridge (needs driver bridge, label " + SandboxLabels.MANAGED
          + "=true and option " + ICC_OPTION + "=false); refusing to attach sandboxes to it");
    }
  }
}
