package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Network;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.SandboxLabels;
import io.quarkus.logging.Log;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The managed sandbox bridges: created with inter-container communication disabled, the managed
 * label and a host interface named {@code wcsbx-…} (the open network) or {@code wcsbe-…} (the
 * internal egress network of allowlisted sandboxes, decision 0012), which the launcher's firewall
 * ({@code bin/lib/sandbox-firewall.sh}) closes before the network even exists. A same-named network
 * lacking label, ICC option or driver is the operator's, and sandboxes never join it; a managed one
 * from before the interface name (or without the egress network's {@code internal}) is recreated.
 */
final class ManagedNetwork {

  static final String ICC_OPTION = "com.docker.network.bridge.enable_icc";
  static final String BRIDGE_NAME_OPTION = "com.docker.network.bridge.name";
  /** The firewall matches {@code wcsbx+}; an interface name has at most 15 characters. */
  static final String BRIDGE_PREFIX = "wcsbx-";
  /** The firewall matches {@code wcsbe+}: only the egress proxy's port on the host answers. */
  static final String EGRESS_BRIDGE_PREFIX = "wcsbe-";

  /** The open network reaches the public internet; the egress network ({@code internal}) has no route out at all. */
  enum Kind {
    OPEN(BRIDGE_PREFIX, false),
    EGRESS(EGRESS_BRIDGE_PREFIX, true);

    final String prefix;
    final boolean internal;

    Kind(String prefix, boolean internal) {
      this.prefix = prefix;
      this.internal = internal;
    }
  }

  private final DockerClient docker;

  ManagedNetwork(DockerClient docker) {
    this.docker = docker;
  }

  /** The network's id once it is the managed bridge (created or recreated when needed). */
  String ensure(String name) {
    return ensure(name, Kind.OPEN);
  }

  String ensure(String name, Kind kind) {
    Network existing = find(name);
    if (existing != null) {
      requireManaged(existing);
      if (bridgeName(name, kind).equals(options(existing).get(BRIDGE_NAME_OPTION))
          && kind.internal == Boolean.TRUE.equals(existing.getInternal())) {
        return existing.getId();
      }
      recreate(existing, kind);
    }
    try {
      String id = docker.createNetworkCmd().withName(name).withDriver("bridge").withCheckDuplicate(true)
          .withInternal(kind.internal)
          .withOptions(Map.of(ICC_OPTION, "false", BRIDGE_NAME_OPTION, bridgeName(name, kind)))
          .withLabels(Map.of(SandboxLabels.MANAGED, "true"))
          .exec().getId();
      Log.infof("created managed sandbox network %s (icc disabled, interface %s%s)", name, bridgeName(name, kind),
          kind.internal ? ", internal" : "");
      return id;
    } catch (ConflictException raced) {
      Network created = find(name);
      if (created == null) {
        throw raced;
      }
      requireManaged(created);
      return created.getId();
    }
  }

  /** {@code wcsbx-} and 9 hex of the network name: stable, distinct per name, short enough for an interface. */
  static String bridgeName(String network) {
    return bridgeName(network, Kind.OPEN);
  }

  static String bridgeName(String network, Kind kind) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(network.getBytes(StandardCharsets.UTF_8));
      return kind.prefix + HexFormat.of().formatHex(hash).substring(0, 9);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }

  /**
   * A managed network from before the fixed interface name is outside the firewall: its sandboxes
   * are cut off (they drift and are recreated on the new network, workspace kept) and it is removed.
   */
  private void recreate(Network outdated, Kind kind) {
    Log.warnf("managed sandbox network %s has no %s interface%s (made by an older Workcell): recreating it",
        outdated.getName(), kind.prefix, kind.internal ? " or is not internal" : "");
    Network current = docker.inspectNetworkCmd().withNetworkId(outdated.getId()).exec();
    if (current.getContainers() != null) {
      for (String container : current.getContainers().keySet()) {
        try {
          docker.disconnectFromNetworkCmd().withNetworkId(outdated.getId()).withContainerId(container).withForce(true).exec();
        } catch (NotFoundException gone) {
          // left meanwhile
        }
      }
    }
    try {
      docker.removeNetworkCmd(outdated.getId()).exec();
    } catch (NotFoundException gone) {
      // another replica removed it
    }
  }

  private static Map<String, String> options(Network network) {
    return network.getOptions() == null ? Map.of() : network.getOptions();
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
    Map<String, String> options = options(network);
    boolean managed = "true".equals(labels.get(SandboxLabels.MANAGED));
    boolean iccOff = "false".equals(options.get(ICC_OPTION));
    if (!managed || !iccOff || !"bridge".equals(network.getDriver())) {
      throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "network " + network.getName()
          + " exists but is not a managed sandbox bridge (needs driver bridge, label " + SandboxLabels.MANAGED
          + "=true and option " + ICC_OPTION + "=false); refusing to attach sandboxes to it");
    }
  }
}
