package dev.workcell.task.policy;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A named runtime policy; null resource fields inherit the deployment's globals. */
@Entity
@Table(name = "runtime_policies")
public class RuntimePolicyEntity extends PanacheEntityBase {

  @Id
  public UUID id;

  @Column(nullable = false, unique = true)
  public String name;

  public String image;

  @Column(name = "memory_limit")
  public String memoryLimit;

  @Column(name = "cpu_limit")
  public String cpuLimit;

  @Column(name = "pids_limit")
  public Integer pidsLimit;

  @Column(name = "workspace_size")
  public String workspaceSize;

  @Column(name = "idle_timeout_ms")
  public Long idleTimeoutMs;

  @Column(name = "network_enabled", nullable = false)
  public boolean networkEnabled;

  @Column(name = "computer_enabled", nullable = false)
  public boolean computerEnabled;

  @Column(name = "takeover_allowed", nullable = false)
  public boolean takeoverAllowed;

  @Column(name = "require_approval", nullable = false)
  public boolean requireApproval;

  /** The egress allowlist, names joined by commas ("" = nothing allowed); null = the open internet. */
  @Column(name = "egress_allowlist")
  public String egressAllowlist;

  @Column(name = "created_at", nullable = false)
  public OffsetDateTime createdAt;

  @Column(name = "updated_at", nullable = false)
  public OffsetDateTime updatedAt;
}
