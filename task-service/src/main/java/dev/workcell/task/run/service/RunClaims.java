package dev.workcell.task.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.ClaimRun;
import dev.workcell.contracts.task.RunnerApi.ClaimedRun;
import dev.workcell.contracts.task.RunnerApi.RunSpec;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.conversation.RunEntity;
import dev.workcell.task.conversation.RunMapper;
import dev.workcell.task.conversation.TaskEntity;
import dev.workcell.task.conversation.TaskMapper;
import dev.workcell.task.conversation.repository.RunRepository;
import dev.workcell.task.conversation.repository.TaskRepository;
import dev.workcell.task.policy.PolicyMapper;
import dev.workcell.task.policy.RuntimePolicyEntity;
import dev.workcell.task.policy.repository.PolicyRepository;
import dev.workcell.task.support.Failures;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;

/**
 * A runner takes a queued run with one request: in one transaction the run moves preparing →
 * running with the runner's lease (the task follows), the mid-run messages are marked delivered, and
 * the spec and model context are read. The conditional update decides races: of several runners
 * claiming the same run exactly one gets it, the others get {@code conflict}. The lease is then
 * renewed by heartbeats ({@link RunLeases}) and swept when they stop ({@link RunSweeper}).
 */
@ApplicationScoped
public class RunClaims {

  private final RunService runService;
  private final RunRepository runs;
  private final TaskRepository tasks;
  private final PolicyRepository policies;
  private final ModelContextBuilder context;
  private final TaskSettings settings;

  public RunClaims(RunService runService, RunRepository runs, TaskRepository tasks, PolicyRepository policies,
      ModelContextBuilder context, TaskSettings settings) {
    this.runService = runService;
    this.runs = runs;
    this.tasks = tasks;
    this.policies = policies;
    this.context = context;
    this.settings = settings;
  }

  public Uni<ClaimedRun> claim(Actor actor, ClaimRun request) {
    WorkAccess.requireService(actor);
    String runner = RunLeases.runnerId(request.runnerId());
    OffsetDateTime now = OffsetDateTime.now();
    OffsetDateTime until = now.plus(settings.runLease());
    return Panache.withTransaction(() -> runService.runOf(request.taskId(), request.runId())
        .chain(run -> runs.claim(run.id, runner, until, now)
            .chain(claimed -> claimed == 0
                ? Failures.<RunEntity>fail(ErrorCode.CONFLICT, "the run is " + stateAfter(run) + " and cannot be claimed")
                : tasks.update("state = ?1, updatedAt = ?2 where id = ?3", RunState.RUNNING.wire(), now, run.taskId)
                    .chain(() -> runService.detached(run)))
            .map(detached -> {
              detached.state = RunState.RUNNING.wire();
              detached.startedAt = now;
              detached.runnerId = runner;
              detached.leaseExpiresAt = until;
              return detached;
            })
        .chain(taken -> tasks.findById(taken.taskId).chain(task -> policyOf(task)
            .chain(policy -> context.read(taken, now).map(model -> new ClaimedRun(
                new RunSpec(RunMapper.toView(taken), TaskMapper.toView(task), PolicyMapper.toView(policy),
                    task.approvalsEnabled || (policy != null && policy.requireApproval)),
                model)))))));
  }

  /** The state a refused claim reports: running when it was preparing a moment ago (another runner won). */
  private static String stateAfter(RunEntity run) {
    return RunState.PREPARING.wire().equals(run.state) ? "claimed by another runner" : run.state;
  }

  private Uni<RuntimePolicyEntity> policyOf(TaskEntity task) {
    return task.policyId == null ? Uni.createFrom().nullItem() : policies.findById(task.policyId);
  }
}
