package dev.workcell.task.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.RunControlApi.Heartbeat;
import dev.workcell.contracts.task.RunControlApi.LeaseState;
import dev.workcell.contracts.task.RunState;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.conversation.repository.RunRepository;
import dev.workcell.task.support.Failures;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;

/**
 * Runner leases: the runner driving a run takes the lease with its claim ({@link RunClaims}) and
 * renews it with each heartbeat. The answer tells a runner to stop when the run ended or another runner holds it. A
 * lease that expired but was not swept yet is still renewed by its own runner: it is alive.
 */
@ApplicationScoped
public class RunLeases {

  private static final int RUNNER_ID_MAX_CHARS = 200;

  private final RunService runService;
  private final RunRepository runs;
  private final TaskSettings settings;

  public RunLeases(RunService runService, RunRepository runs, TaskSettings settings) {
    this.runService = runService;
    this.runs = runs;
    this.settings = settings;
  }

  /** A runner id as leases store it; invalid_request otherwise. */
  static String runnerId(String runner) {
    if (runner == null || runner.isBlank() || runner.length() > RUNNER_ID_MAX_CHARS) {
      throw Failures.invalid("runnerId is required (at most 200 characters)");
    }
    return runner;
  }

  public Uni<LeaseState> heartbeat(Actor actor, Heartbeat request) {
    WorkAccess.requireService(actor);
    String runner = runnerId(request.runnerId());
    OffsetDateTime until = OffsetDateTime.now().plus(settings.runLease());
    return Panache.withTransaction(() -> runService.runOf(request.taskId(), request.runId())
        .chain(run -> runs.renewLease(run.id, runner, until)
            .chain(renewed -> renewed > 0
                ? Uni.createFrom().item(new LeaseState(true, RunState.fromWire(run.state), until.toInstant()))
                // Not renewed: the run ended, or another runner holds it.
                : Uni.createFrom().item(new LeaseState(false, RunState.fromWire(run.state),
                    run.leaseExpiresAt == null ? null : run.leaseExpiresAt.toInstant())))));
  }
}
