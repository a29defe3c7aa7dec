package dev.workcell.contracts.task;

import dev.workcell.contracts.subject.NatsUser;
import dev.workcell.contracts.subject.Push;
import java.time.Instant;

/**
 * How a runner holds the runs it drives (a lease it renews over {@link TaskSubjects#RUNNER_HEARTBEAT})
 * and how task-service tells it at once that something changed (a {@link RunControl} pushed on the
 * run's control subject, core NATS, fire and forget; the runner still polls as a fallback).
 */
public final class RunControlApi {

  /** Per-run control subjects, {@code workcell.agent-runner.runs.<runId>.control}: task-service pushes, the runner listens. */
  public static final Push<RunControl> CONTROL = Push.core("workcell.agent-runner.runs.*.control", RunControl.class,
      Push.by(NatsUser.TASK), Push.by(NatsUser.AGENT_RUNNER));

  /** The owner cancelled: the run already ended (needs_input) in task-service; stop at once. */
  public static final String CANCEL = "cancel";
  /** A message was posted; it reaches the model at the next round. */
  public static final String MESSAGE = "message";
  /** An approval of the run was decided. */
  public static final String APPROVAL = "approval";
  /** The run ended in task-service for another reason (lease lost, access revoked, task deleted). */
  public static final String ENDED = "ended";

  private RunControlApi() {}

  /** {@code workcell.agent-runner.runs.<runId>.control}. */
  public static String controlSubject(String runId) {
    return CONTROL.subject(runId);
  }

  /**
   * Renews the lease of the runner {@code runnerId} on a run it claimed ({@link TaskSubjects#RUNNER_CLAIM}).
   * {@link LeaseState} → service actors only.
   */
  public record Heartbeat(String taskId, String runId, String runnerId) {}

  /**
   * {@code held} false: stop driving the run and publish nothing more — it ended ({@code runState}
   * says how; task-service published its final events) or another runner holds it.
   */
  public record LeaseState(boolean held, RunState runState, Instant leaseExpiresAt) {}

  /** Pushed by task-service on the run's control subject; {@code kind} is one of the constants above. */
  public record RunControl(String taskId, String runId, String kind, RunState runState) {}
}
