package dev.workcell.gateway.policy.rest;

import java.util.List;

/**
 * A runtime policy as an admin writes it. Null resource fields inherit the deployment's globals;
 * {@code networkEnabled} and {@code takeoverAllowed} default to true. {@code egressAllowlist}: absent
 * or null for the open internet, else the only host names (exact, or {@code *.suffix}) its sandboxes
 * reach, through the egress proxy; a change applies to running sandboxes without recreating them.
 */
public record SavePolicyRequest(
    String name,
    String image,
    String memoryLimit,
    String cpuLimit,
    Integer pidsLimit,
    String workspaceSize,
    Long idleTimeoutMs,
    Boolean networkEnabled,
    Boolean computerEnabled,
    Boolean takeoverAllowed,
    Boolean requireApproval,
    List<String> egressAllowlist) {}
