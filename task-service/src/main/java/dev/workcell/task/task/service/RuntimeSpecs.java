package dev.workcell.task.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpec;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpecRequest;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.account.repository.AccountRepository;
import dev.workcell.task.policy.PolicyMapper;
import dev.workcell.task.policy.RuntimePolicyEntity;
import dev.workcell.task.policy.repository.PolicyRepository;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.TaskEntity;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** What sandbox-service builds a task's runtime from: names, owner, network and policy. */
@ApplicationScoped
public class RuntimeSpecs {

  private final TaskRepository tasks;
  private final PolicyRepository policies;
  private final AccountRepository accounts;

  public RuntimeSpecs(TaskRepository tasks, PolicyRepository policies, AccountRepository accounts) {
    this.tasks = tasks;
    this.policies = policies;
    this.accounts = accounts;
  }

  public Uni<RuntimeSpec> spec(Actor actor, RuntimeSpecRequest request) {
    WorkAccess.requireService(actor);
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    return Panache.withSession(() -> tasks.findById(taskId)
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .call(this::ownerMayUseHostFolder)
        .chain(task -> (task.policyId == null ? Uni.createFrom().<RuntimePolicyEntity>nullItem()
                : policies.findById(task.policyId))
            .map(policy -> new RuntimeSpec(task.id.toString(), task.ownerId.toString(), task.sandboxName,
                task.volumeName, task.networkEnabled, PolicyMapper.toView(policy), task.decommissioning, task.workspaceFolder))));
  }

  /**
   * Host-folder workspaces stay admin-only in every mode: a task on one gets no runtime once its owner
   * is no longer an active admin (demoted or disabled after creating it). Its removal still goes ahead.
   */
  private Uni<?> ownerMayUseHostFolder(TaskEntity task) {
    if (task.workspaceFolder == null || task.decommissioning) {
      return Uni.createFrom().voidItem();
    }
    return accounts.findById(task.ownerId).invoke(owner -> {
      if (owner == null || owner.storedRole() != Actor.Role.ADMIN || !"active".equals(owner.status)) {
        throw new WorkcellException(ErrorCode.FORBIDDEN,
            "host-folder workspaces are for admins only, and this task's owner is no longer an active admin");
      }
    });
  }
}
