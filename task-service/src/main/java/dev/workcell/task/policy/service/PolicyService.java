package dev.workcell.task.policy.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.EgressAllowlist;
import dev.workcell.contracts.task.PolicyView;
import dev.workcell.contracts.task.WorkAdminApi.PolicyDeleted;
import dev.workcell.contracts.task.WorkAdminApi.PolicyList;
import dev.workcell.contracts.task.WorkAdminApi.PolicyRef;
import dev.workcell.contracts.task.WorkAdminApi.SavePolicy;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.audit.service.AuditLog;
import dev.workcell.task.policy.PolicyMapper;
import dev.workcell.task.policy.RuntimePolicyEntity;
import dev.workcell.task.policy.repository.PolicyRepository;
import dev.workcell.task.support.DbErrors;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Named runtime policies. A task's network flag follows its policy (there is no per-task switch);
 * the sandbox picks a change up when it is next recreated. A changed egress allowlist applies at
 * once: the egress proxy reads the current policy (decision 0012).
 */
@ApplicationScoped
public class PolicyService {

  private static final String NAME_UNIQUE = "runtime_policies_name_key";

  private final WorkAccess access;
  private final PolicyRepository policies;
  private final TaskRepository tasks;
  private final AuditLog audit;

  public PolicyService(WorkAccess access, PolicyRepository policies, TaskRepository tasks, AuditLog audit) {
    this.access = access;
    this.policies = policies;
    this.tasks = tasks;
    this.audit = audit;
  }

  public Uni<PolicyList> list(Actor actor) {
    return Panache.withSession(() -> access.requireWorkUser(actor)
        .chain(policies::allByName)
        .map(all -> new PolicyList(all.stream().map(PolicyMapper::toView).toList())));
  }

  public Uni<PolicyView> save(Actor actor, SavePolicy request) {
    validate(request);
    UUID id = request.id() == null ? null : Ids.parse(request.id()).orElseThrow(() -> Failures.invalid("no such policy"));
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> access.requireAdmin(actor)
            .chain(() -> id == null ? Uni.createFrom().item(created(now))
                : policies.findById(id).onItem().ifNull().failWith(() -> Failures.error(ErrorCode.NOT_FOUND, "no such policy")))
            .chain(policy -> {
              boolean isNew = policy.updatedAt == null;
              apply(policy, request, now);
              Uni<RuntimePolicyEntity> saved = isNew ? policies.persistAndFlush(policy)
                  : policies.flush().replaceWith(policy);
              return saved
                  .call(p -> tasks.update("networkEnabled = ?1 where policyId = ?2", p.networkEnabled, p.id))
                  .call(p -> audit.record(actor, isNew ? "policy.create" : "policy.update", null, detail(p)));
            })
            .map(PolicyMapper::toView))
        .onFailure(e -> DbErrors.uniqueViolation(e, NAME_UNIQUE))
        .transform(e -> Failures.error(ErrorCode.ALREADY_EXISTS, "a policy with this name exists"));
  }

  /** Tasks of a deleted policy fall back to the deployment defaults (network on). */
  public Uni<PolicyDeleted> delete(Actor actor, PolicyRef request) {
    UUID id = Ids.parse(request.policyId()).orElse(null);
    return Panache.withTransaction(() -> access.requireAdmin(actor)
        .chain(() -> id == null ? Uni.createFrom().<RuntimePolicyEntity>nullItem() : policies.findById(id))
        .onItem().ifNull().failWith(() -> Failures.error(ErrorCode.NOT_FOUND, "no such policy"))
        .chain(policy -> tasks.update("networkEnabled = true, policyId = null where policyId = ?1", policy.id)
            .call(() -> policies.delete(policy))
            .call(reset -> audit.record(actor, "policy.delete", null, Map.of("policyId", policy.id.toString(),
                "name", policy.name, "tasksReset", reset)))
            .map(reset -> new PolicyDeleted(policy.id.toString(), reset))));
  }

  private static RuntimePolicyEntity created(OffsetDateTime now) {
    RuntimePolicyEntity policy = new RuntimePolicyEntity();
    policy.id = UUID.randomUUID();
    policy.createdAt = now;
    return policy;
  }

  private static void apply(RuntimePolicyEntity p, SavePolicy r, OffsetDateTime now) {
    p.name = r.name().strip();
    p.image = blankToNull(r.image());
    p.memoryLimit = blankToNull(r.memoryLimit());
    p.cpuLimit = blankToNull(r.cpuLimit());
    p.pidsLimit = r.pidsLimit();
    p.workspaceSize = blankToNull(r.workspaceSize());
    p.idleTimeoutMs = r.idleTimeoutMs();
    p.networkEnabled = r.networkEnabled();
    p.computerEnabled = r.computerEnabled();
    p.takeoverAllowed = r.takeoverAllowed();
    p.requireApproval = r.requireApproval();
    p.egressAllowlist = PolicyMapper.storedAllowlist(EgressAllowlist.validate(r.egressAllowlist()));
    p.updatedAt = now;
  }

  private static void validate(SavePolicy r) {
    if (r.name() == null || r.name().isBlank() || r.name().strip().length() > 100) {
      throw Failures.invalid("a policy needs a name of 1-100 characters");
    }
    if (r.image() != null && r.image().length() > 500) {
      throw Failures.invalid("the image reference exceeds 500 characters");
    }
    for (String size : new String[] {r.memoryLimit(), r.cpuLimit(), r.workspaceSize()}) {
      if (size != null && !size.isBlank() && !size.strip().matches("[0-9]+(\\.[0-9]+)?[A-Za-z]{0,2}")) {
        throw Failures.invalid("resource sizes look like 2g, 1.5 or 5Gi");
      }
    }
    if (r.pidsLimit() != null && r.pidsLimit() <= 0 || r.idleTimeoutMs() != null && r.idleTimeoutMs() < 0) {
      throw Failures.invalid("pidsLimit must be positive and idleTimeoutMs not negative");
    }
    EgressAllowlist.validate(r.egressAllowlist());
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  private static Map<String, Object> detail(RuntimePolicyEntity p) {
    Map<String, Object> detail = new HashMap<>();
    detail.put("policyId", p.id.toString());
    detail.put("name", p.name);
    detail.put("networkEnabled", p.networkEnabled);
    detail.put("requireApproval", p.requireApproval);
    detail.put("computerEnabled", p.computerEnabled);
    detail.put("egressAllowlist", p.egressAllowlist == null ? null : PolicyMapper.toView(p).egressAllowlist());
    return detail;
  }
}
