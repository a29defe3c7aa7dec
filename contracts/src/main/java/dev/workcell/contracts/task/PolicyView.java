package dev.workcell.contracts.task;

import java.time.Instant;

/**
 * A named runtime policy. Empty (null) resource fields inherit the deployment's globals. Policies
 * tune resources and feature switches only; the hardening profile is not a policy field.
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
    Instant createdAt,
    Instant updatedAt) {}
