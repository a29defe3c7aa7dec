package dev.workcell.task.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.RunnerApi.RunTransition;
import dev.workcell.contracts.task.TaskApi.GetRun;
import dev.workcell.contracts.task.TaskApi.RunCancelled;
import dev.workcell.contracts.task.TaskApi.RunDetail;
import dev.workcell.contracts.task.TaskApi.RunStarted;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.conversation.MessageEntity;
import dev.workcell.task.conversation.MessageMapper;
import dev.workcell.task.conversation.repository.MessageRepository;
import dev.workcell.task.conversation.service.MessageLimits;
import dev.workcell.task.conversation.RunEntity;
import dev.workcell.task.conversation.RunMapper;
import dev.workcell.task.run.messaging.RunControlPublisher;
import dev.workcell.task.run.messaging.RunEndEvents;
import dev.workcell.task.conversation.repository.RunRepository;
import dev.workcell.task.support.DbErrors;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.TaskEntity;
import dev.workcell.task.conversation.TaskMapper;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The rules of runs: one active run per task (the database's partial unique index decides races),
 * follow-up runs on the same conversation, cancel, and the runner's state transitions. The task's
 * state follows its latest run.
 */
@ApplicationScoped
public class RunService {

  /** The index that makes a second active run impossible (V3 migration). */
  public static final String ONE_ACTIVE_RUN = "runs_one_active_per_task";
  private static final String ACTIVE = "('preparing', 'running')";
  private static final int REASON_MAX_CHARS = 2000;
  public static final String CANCELLED_BY_OWNER = "cancelled by the owner";

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final RunRepository runs;
  private final MessageRepository messages;
  private final MessageMapper messageMapper;
  private final RunQueue queue;
  private final RunEndEvents endEvents;
  private final RunControlPublisher control;
  private final TaskSettings settings;

  public RunService(WorkAccess access, TaskRepository tasks, RunRepository runs, MessageRepository messages,
      MessageMapper messageMapper, RunQueue queue, RunEndEvents endEvents, RunControlPublisher control,
      TaskSettings settings) {
    this.endEvents = endEvents;
    this.control = control;
    this.settings = settings;
    this.access = access;
    this.tasks = tasks;
    this.runs = runs;
    this.messages = messages;
    this.messageMapper = messageMapper;
    this.queue = queue;
  }

  /**
   * A new run and its opening user message, in memory only: {@link #open} stores them, task creation
   * stores them together with the task. The task's state follows (preparing).
   */
  public Opened prepare(TaskEntity task, String text, OffsetDateTime now) {
    RunEntity run = new RunEntity();
    run.id = UUID.randomUUID();
    run.taskId = task.id;
    run.state = RunState.PREPARING.wire();
    run.providerKind = task.providerKind;
    run.providerId = task.providerId;
    run.model = task.model;
    run.createdAt = now;
    MessageEntity message = new MessageEntity();
    message.taskId = task.id;
    message.runId = run.id;
    message.role = MessageRole.USER.wire();
    message.content = text;
    message.createdAt = now;
    task.state = RunState.PREPARING.wire();
    task.updatedAt = now;
    return new Opened(run, message);
  }

  /**
   * Stores a new run and its opening message in one statement; must run in the caller's
   * transaction. That insert is where a concurrent start meets the unique index.
   */
  public Uni<Opened> open(TaskEntity task, String text, OffsetDateTime now) {
    Opened opened = prepare(task, text, now);
    return runs.insertWithMessage(opened.run(), opened.message())
        .invoke(id -> opened.message().id = id)
        .replaceWith(opened);
  }

  /** What {@link #prepare} made. */
  public record Opened(RunEntity run, MessageEntity message) {}

  /** A follow-up run on the same conversation and workspace, queued for agent-runner once committed. */
  public Uni<RunStarted> start(Actor actor, StartRun request) {
    String text = MessageLimits.requireUserMessage(request.message());
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> access.requireWorkUser(actor)
            .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
            .onItem().ifNull().failWith(Failures::taskNotFound)
            .call(task -> task.decommissioning ? Failures.fail(ErrorCode.TASK_DECOMMISSIONING, "the task is being deleted")
                : runs.active(task.id).onItem().ifNotNull().failWith(RunService::runActive))
            .chain(task -> open(task, text, now)
                .map(opened -> new RunStarted(TaskMapper.toView(task), RunMapper.toView(opened.run()),
                    messageMapper.toView(opened.message())))))
        .onFailure(e -> DbErrors.uniqueViolation(e, ONE_ACTIVE_RUN)).transform(e -> runActive())
        .call(started -> queue.enqueue(actor, started.task().id(), started.run().id()));
  }

  /**
   * Cancels the active run: it ends needs_input (the task shows Needs input; the files and the
   * conversation stay). This is the one place that decides that end state. Once committed, the
   * run's live stream gets its final run_state and done, and the driving runner is told at once so
   * it stops its command and model stream. No active run is not an error.
   */
  public Uni<RunCancelled> cancel(Actor actor, TaskRef request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    OffsetDateTime now = OffsetDateTime.now();
    boolean[] ended = new boolean[1];
    return Panache.withTransaction(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .chain(task -> endActive(task, RunState.NEEDS_INPUT, CANCELLED_BY_OWNER, now)
            .invoke(count -> ended[0] = count > 0)
            .chain(count -> runs.latest(task.id)
                .map(run -> new RunCancelled(TaskMapper.toView(task), RunMapper.toView(run))))))
        .call(cancelled -> !ended[0] ? Uni.createFrom().voidItem()
            : endEvents.publish(cancelled.task().id(), cancelled.run().id(), RunState.NEEDS_INPUT.wire(), CANCELLED_BY_OWNER)
                .invoke(() -> control.push(cancelled.task().id(), cancelled.run().id(), RunControlApi.CANCEL,
                    RunState.NEEDS_INPUT)));
  }

  /** The task's active run (preparing or running), or null. */
  public Uni<RunEntity> active(UUID taskId) {
    return runs.active(taskId);
  }

  /**
   * After the transaction that ended a run for a reason of the service's own (a deletion): its
   * stream ends, and the runner driving it is told at once, so it stops its model stream and command.
   */
  public Uni<Void> announceEnded(String taskId, String runId, RunState state, String reason) {
    return endEvents.publish(taskId, runId, state.wire(), reason)
        .invoke(() -> control.push(taskId, runId, RunControlApi.ENDED, state));
  }

  /**
   * Ends the task's active run (if any) with {@code state} and lets the task follow; runs in the
   * caller's transaction. Returns how many runs ended.
   */
  public Uni<Integer> endActive(TaskEntity task, RunState state, String reason, OffsetDateTime now) {
    return runs.endActive(task.id, state.wire(), reason, now).invoke(ended -> {
      if (ended > 0 || isActive(task.state)) {
        task.state = state.wire();
        task.lastFinishedAt = now;
        task.updatedAt = now;
      }
    });
  }

  /**
   * The runner ends its run (a run becomes running only by its claim, {@link RunClaims}); a run that
   * already ended cannot end again. Once committed, task-service publishes the run's final
   * {@code run_state} and {@code done}, after the runner's last event: the one writer of a run's end.
   */
  public Uni<RunView> transition(Actor actor, RunTransition request) {
    WorkAccess.requireService(actor);
    RunState to = request.state();
    if (to == null || to.active()) {
      throw Failures.invalid("state must be completed, needs_input, failed or cancelled (a run becomes running by its claim)");
    }
    String reason = bound(request.reason());
    OffsetDateTime now = OffsetDateTime.now();
    boolean[] ended = new boolean[1];
    return Panache.withTransaction(() -> runOf(request.taskId(), request.runId()).chain(run -> {
      if (RunState.fromWire(run.state) == to) {
        return Uni.createFrom().item(RunMapper.toView(run));
      }
      return runs.move(run.id, ACTIVE, to.wire(), reason, now, true)
          .chain(moved -> moved == 0
              ? Failures.<Integer>fail(ErrorCode.CONFLICT, "the run is " + run.state + " and cannot become " + to.wire())
              : tasks.update("state = ?1, updatedAt = ?2, lastFinishedAt = ?2 where id = ?3", to.wire(), now, run.taskId))
          .invoke(() -> ended[0] = true)
          .chain(() -> detached(run))
          .map(detached -> {
            detached.state = to.wire();
            detached.finishedAt = now;
            detached.reason = reason;
            return RunMapper.toView(detached);
          });
    }))
        .call(view -> ended[0] ? endEvents.publish(view.taskId(), view.id(), to.wire(), reason) : Uni.createFrom().voidItem());
  }

  /**
   * One run of the caller's task by id, older runs included (a live stream of an earlier run shows
   * how it ended). A run of another owner's task, or of another task, is not_found like the task.
   */
  public Uni<RunDetail> get(Actor actor, GetRun request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    UUID runId = Ids.parse(request.runId()).orElseThrow(RunService::runNotFound);
    return Panache.withSession(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .chain(task -> runs.ofTask(task.id, runId)
            .onItem().ifNull().failWith(RunService::runNotFound)
            .map(run -> new RunDetail(TaskMapper.toView(task), RunMapper.toView(run)))));
  }

  /** The run if it belongs to the task (both ids checked); not_found otherwise. */
  public Uni<RunEntity> runOf(String taskId, String runId) {
    UUID task = Ids.parse(taskId).orElse(null);
    UUID run = Ids.parse(runId).orElse(null);
    if (task == null || run == null) {
      return Failures.fail(ErrorCode.NOT_FOUND, "no such run");
    }
    return runs.ofTask(task, run).onItem().ifNull()
        .failWith(() -> Failures.error(ErrorCode.NOT_FOUND, "no such run"));
  }

  /** The entity out of the session, so mirroring a bulk update on it writes nothing more. */
  Uni<RunEntity> detached(RunEntity run) {
    return Panache.getSession().invoke(session -> session.detach(run)).replaceWith(run);
  }

  private static boolean isActive(String state) {
    return RunState.PREPARING.wire().equals(state) || RunState.RUNNING.wire().equals(state);
  }

  private static String bound(String reason) {
    if (reason == null || reason.isBlank()) {
      return null;
    }
    return reason.length() > REASON_MAX_CHARS ? reason.substring(0, REASON_MAX_CHARS) : reason;
  }

  private static WorkcellException runNotFound() {
    return Failures.error(ErrorCode.NOT_FOUND, "no such run");
  }

  private static Throwable runActive() {
    return Failures.error(ErrorCode.RUN_ACTIVE, "the task already has an active run");
  }
}
