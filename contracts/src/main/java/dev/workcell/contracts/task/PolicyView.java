package dev.workcell.contracts.task;

import java.time.Instant;
import java.util.List;

/**
 * A named runtime policy. Empty (null) resource fields inherit the deployment's globals. Policies
 * tune resources and feature switches only; the hardening profile is not a policy field.
 * {@code egressAllowlist}: null for the open internet, else the only host names its sandboxes reach,
 * through the egress proxy ({@link EgressAllowlist}); a change applies to running sandboxes at once.
 */
public record PolicyView(
    String id,
    String name,
    String image,
    String memoryLimit,
    String cpuLimit,
    Integer pidsLimit,
    String workspaceSize,
    Long idleTimeoutMs,
    boolean networkEnabled,
    boolean computerEnabled,
    boolean takeoverAllowed,
    boolean requireApproval,
    List<String> egressAllowlist,
    Instant createdAt,
    Instant updatedAt) {}
