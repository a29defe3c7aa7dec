package dev.workcell.task.tool.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.RunnerApi.ToolFinished;
import dev.workcell.contracts.task.RunnerApi.ToolRecorded;
import dev.workcell.contracts.task.RunnerApi.ToolStarted;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.task.conversation.MessageEntity;
import dev.workcell.task.conversation.MessageMapper;
import dev.workcell.task.tool.repository.ToolCallWrites;
import dev.workcell.contracts.task.TaskApi.ListToolActivity;
import dev.workcell.contracts.task.TaskApi.ToolActivityPage;
import dev.workcell.contracts.task.ToolActivityView;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.run.service.RunService;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.support.Text;
import dev.workcell.task.conversation.repository.TaskRepository;
import dev.workcell.task.tool.ToolActivityEntity;
import dev.workcell.task.tool.repository.ToolActivityRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The Activity timeline: the runner records each tool call with one write at its start and one at
 * its end (which also appends the tool message); owners read it back.
 */
@ApplicationScoped
public class ToolActivityService {

  private static final Set<String> ENDED = Set.of("ok", "error", "denied");
  private static final int PAGE_MAX = 200;

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final RunService runs;
  private final ToolActivityRepository activity;
  private final ToolCallWrites writes;
  private final MessageMapper messages;

  public ToolActivityService(WorkAccess access, TaskRepository tasks, RunService runs, ToolActivityRepository activity,
      ToolCallWrites writes, MessageMapper messages) {
    this.access = access;
    this.tasks = tasks;
    this.runs = runs;
    this.activity = activity;
    this.writes = writes;
    this.messages = messages;
  }

  /** A tool call starts: its Activity record, running. */
  public Uni<ToolRecorded> started(Actor actor, ToolStarted request) {
    WorkAccess.requireService(actor);
    ToolCall call = checked(request.call());
    Text.Bounded args = Text.boundChars(call.arguments(), Limits.STORED_TOOL_OUTPUT_CHARS);
    UUID taskId = Ids.parse(request.taskId()).orElse(null);
    UUID runId = Ids.parse(request.runId()).orElse(null);
    if (taskId == null || runId == null) {
      return Failures.fail(ErrorCode.NOT_FOUND, "no such run");
    }
    return writes.start(taskId, runId, call.id(), call.name(), args.text())
        .chain(stored -> refusal(stored, request.taskId(), request.runId(), "the tool call already started"))
        .map(stored -> new ToolRecorded(toView(activity(taskId, runId, call, args.text(), "running", null, false, stored)), null));
  }

  /**
   * A tool call ended, or never ran: its Activity record gets the result (created when the call never
   * started) and the tool message answering it is appended, in one statement. Output is stored up to
   * 20,000 characters with a marker when cut, in both.
   */
  public Uni<ToolRecorded> finished(Actor actor, ToolFinished request) {
    WorkAccess.requireService(actor);
    ToolCall call = checked(request.call());
    if (!ENDED.contains(request.status())) {
      throw Failures.invalid("status must be ok, error or denied");
    }
    Text.Bounded args = Text.boundChars(call.arguments(), Limits.STORED_TOOL_OUTPUT_CHARS);
    Text.Bounded output = Text.boundChars(request.output() == null ? "" : request.output(), Limits.STORED_TOOL_OUTPUT_CHARS);
    boolean cut = output.truncated() || request.sourceTruncated();
    UUID taskId = Ids.parse(request.taskId()).orElse(null);
    UUID runId = Ids.parse(request.runId()).orElse(null);
    if (taskId == null || runId == null) {
      return Failures.fail(ErrorCode.NOT_FOUND, "no such run");
    }
    return writes.finish(taskId, runId, call.id(), call.name(), args.text(), request.status(), output.text(), cut, output.text(),
            output.truncated())
        .chain(stored -> refusal(stored, request.taskId(), request.runId(), "the tool call already has its result"))
        .map(stored -> {
          ToolActivityEntity row = activity(taskId, runId, call, args.text(), request.status(), output.text(), cut, stored);
          MessageEntity message = MessageEntity.stored(stored.messageId(), taskId, runId, MessageRole.TOOL.wire(),
              output.text(), output.truncated(), stored.messageAt());
          message.toolCallId = call.id();
          return new ToolRecorded(toView(row), messages.toView(message));
        });
  }

  private static ToolCall checked(ToolCall call) {
    if (call == null || call.id() == null || call.id().isBlank() || call.id().length() > 200) {
      throw Failures.invalid("call.id is required (at most 200 characters)");
    }
    if (call.name() == null || call.name().isBlank() || call.name().length() > 200) {
      throw Failures.invalid("call.name is required (at most 200 characters)");
    }
    return call;
  }

  /** Passes a stored write; a run that is not active, or a call already recorded so, is a conflict. */
  private Uni<ToolCallWrites.Stored> refusal(ToolCallWrites.Stored stored, String taskId, String runId, String already) {
    if (stored.active() && stored.activityId() != null) {
      return Uni.createFrom().item(stored);
    }
    if (stored.active()) {
      return Failures.fail(ErrorCode.CONFLICT, already);
    }
    // Only a refused write opens a session, to say why.
    return Panache.withSession(() -> runs.runOf(taskId, runId)).chain(run -> Failures.fail(ErrorCode.CONFLICT,
        "the run is " + run.state + "; nothing more is recorded for it"));
  }

  private static ToolActivityEntity activity(UUID taskId, UUID runId, ToolCall call, String arguments, String status, String output,
      boolean truncated, ToolCallWrites.Stored stored) {
    ToolActivityEntity row = new ToolActivityEntity();
    row.id = stored.activityId();
    row.taskId = taskId;
    row.runId = runId;
    row.toolCallId = call.id();
    row.toolName = call.name();
    row.arguments = arguments;
    row.status = status;
    row.output = output;
    row.outputTruncated = truncated;
    row.startedAt = stored.startedAt();
    row.finishedAt = stored.finishedAt();
    return row;
  }

  /** Oldest first within the page, like messages. */
  public Uni<ToolActivityPage> list(Actor actor, ListToolActivity request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    UUID runId = request.runId() == null ? null : Ids.parse(request.runId()).orElseThrow(Failures::taskNotFound);
    int limit = request.limit() <= 0 ? 50 : Math.min(request.limit(), PAGE_MAX);
    long before = request.beforeId() == null ? Long.MAX_VALUE : request.beforeId();
    return Panache.withSession(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .chain(task -> activity.page(task.id, runId, before, limit + 1))
        .map(rows -> {
          boolean more = rows.size() > limit;
          List<ToolActivityEntity> page = new ArrayList<>(more ? rows.subList(0, limit) : rows);
          Long next = more ? page.get(page.size() - 1).id : null;
          Collections.reverse(page);
          return new ToolActivityPage(page.stream().map(ToolActivityService::toView).toList(), next);
        }));
  }

  static ToolActivityView toView(ToolActivityEntity t) {
    return new ToolActivityView(t.id, t.taskId.toString(), t.runId.toString(), t.toolCallId, t.toolName, t.arguments,
        t.status, t.output, t.outputTruncated, t.startedAt == null ? null : t.startedAt.toInstant(),
        t.finishedAt == null ? null : t.finishedAt.toInstant());
  }
}
