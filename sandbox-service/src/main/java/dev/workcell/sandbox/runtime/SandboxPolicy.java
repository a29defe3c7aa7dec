package dev.workcell.sandbox.runtime;

import java.util.List;

/**
 * The runtime policy a sandbox is created from: resources and the network switch only (the
 * hardening profile is not a policy field). A null field inherits the deployment's setting. Stored
 * on the container (label {@link SandboxLabels#POLICY}) so a restart keeps it until a recreate.
 *
 * @param memory such as {@code 2g} or {@code 512m}; swap is always pinned to it
 * @param cpus cores, such as {@code 1.5}
 * @param egressAllowlist null: the open internet; else the sandbox joins the egress network and
 *     reaches only these names, through the egress proxy, which reads the current list on every
 *     connection (decision 0012); only whether there is a list is fixed at create
 * @param hostFolder the task's host folder, bound as its workspace instead of its volume (decision 0023);
 *     null: the volume. Not a policy's field: the task's, fixed when it was made
 */
public record SandboxPolicy(String image, String memory, String cpus, Long pidsLimit, Boolean network,
    List<String> egressAllowlist, String hostFolder) {

  public SandboxPolicy {
    egressAllowlist = egressAllowlist == null ? null : List.copyOf(egressAllowlist);
  }

  public SandboxPolicy(String image, String memory, String cpus, Long pidsLimit, Boolean network,
      List<String> egressAllowlist) {
    this(image, memory, cpus, pidsLimit, network, egressAllowlist, null);
  }

  public SandboxPolicy(String image, String memory, String cpus, Long pidsLimit, Boolean network) {
    this(image, memory, cpus, pidsLimit, network, null, null);
  }

  /** Every field inherited: the global settings, network on. */
  public static SandboxPolicy defaults() {
    return new SandboxPolicy(null, null, null, null, null, null, null);
  }
}
