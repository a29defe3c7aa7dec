package dev.workcell.task.tool.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.RunnerApi.RecordToolActivity;
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
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** The Activity timeline: the runner records each tool call; owners read it back. */
@ApplicationScoped
public class ToolActivityService {

  private static final Set<String> STATUSES = Set.of("running", "ok", "error", "denied");
  private static final int PAGE_MAX = 200;

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final RunService runs;
  private final ToolActivityRepository activity;

  public ToolActivityService(WorkAccess access, TaskRepository tasks, RunService runs, ToolActivityRepository activity) {
    this.access = access;
    this.tasks = tasks;
    this.runs = runs;
    this.activity = activity;
  }

  /** Creates or completes the record of one tool call (keyed by run and tool call id). */
  public Uni<ToolActivityView> record(Actor actor, RecordToolActivity request) {
    WorkAccess.requireService(actor);
    if (request.toolCallId() == null || request.toolCallId().isBlank() || request.toolCallId().length() > 200) {
      throw Failures.invalid("toolCallId is required (at most 200 characters)");
    }
    if (request.toolName() == null || request.toolName().isBlank() || request.toolName().length() > 200) {
      throw Failures.invalid("toolName is required (at most 200 characters)");
    }
    if (!STATUSES.contains(request.status())) {
      throw Failures.invalid("status must be running, ok, error or denied");
    }
    Text.Bounded args = Text.boundChars(request.arguments(), Limits.STORED_TOOL_OUTPUT_CHARS);
    Text.Bounded output = Text.boundChars(request.output(), Limits.STORED_TOOL_OUTPUT_CHARS);
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> runs.runOf(request.taskId(), request.runId())
        .chain(run -> activity.ofCall(run.id, request.toolCallId()).chain(existing -> {
          ToolActivityEntity row = existing;
          if (row == null) {
            row = new ToolActivityEntity();
            row.taskId = run.taskId;
            row.runId = run.id;
            row.toolCallId = request.toolCallId();
            row.startedAt = now;
          } else if (!"running".equals(row.status)) {
            return Failures.<ToolActivityEntity>fail(ErrorCode.CONFLICT, "the tool call already has its result");
          }
          row.toolName = request.toolName();
          if (args.text() != null) {
            row.arguments = args.text();
          }
          row.status = request.status();
          row.output = output.text();
          row.outputTruncated = output.truncated() || request.sourceTruncated();
          row.finishedAt = "running".equals(request.status()) ? null : now;
          return existing == null ? activity.persist(row) : Uni.createFrom().item(row);
        }))
        .map(ToolActivityService::toView));
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
