package dev.workcell.task.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpec;
import dev.workcell.contracts.task.RunnerApi.RuntimeSpecRequest;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.policy.PolicyMapper;
import dev.workcell.task.policy.RuntimePolicyEntity;
import dev.workcell.task.policy.repository.PolicyRepository;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
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

  public RuntimeSpecs(TaskRepository tasks, PolicyRepository policies) {
    this.tasks = tasks;
    this.policies = policies;
  }

  public Uni<RuntimeSpec> spec(Actor actor, RuntimeSpecRequest request) {
    WorkAccess.requireService(actor);
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    return Panache.withSession(() -> tasks.findById(taskId)
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .chain(task -> (task.policyId == null ? Uni.createFrom().<RuntimePolicyEntity>nullItem()
                : policies.findById(task.policyId))
            .map(policy -> new RuntimeSpec(task.id.toString(), task.ownerId.toString(), task.sandboxName,
                task.volumeName, task.networkEnabled, PolicyMapper.toView(policy), task.decommissioning, task.workspaceFolder))));
  }
}
