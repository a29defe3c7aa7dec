package dev.workcell.sandbox.runtime;

/**
 * The runtime policy a sandbox is created from: resources and the network switch only (the
 * hardening profile is not a policy field). A null field inherits the deployment's setting. Stored
 * on the container (label {@link SandboxLabels#POLICY}) so a restart keeps it until a recreate.
 *
 * @param memory such as {@code 2g} or {@code 512m}; swap is always pinned to it
 * @param cpus cores, such as {@code 1.5}
 */
public record SandboxPolicy(String image, String memory, String cpus, Long pidsLimit, Boolean network) {

  /** Every field inherited: the global settings, network on. */
  public static SandboxPolicy defaults() {
    return new SandboxPolicy(null, null, null, null, null);
  }
}
