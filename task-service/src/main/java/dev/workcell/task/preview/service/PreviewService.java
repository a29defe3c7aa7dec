package dev.workcell.task.preview.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.PreviewApi.SetPreview;
import dev.workcell.contracts.task.PreviewView;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.preview.PreviewStateEntity;
import dev.workcell.task.preview.repository.PreviewRepository;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.TaskEntity;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Set;
import java.util.UUID;

/** Preview state: written by sandbox-service, read by the owner and by preview-proxy. */
@ApplicationScoped
public class PreviewService {

  private static final Set<String> STATES = Set.of("starting", "ready", "stopped");

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final PreviewRepository previews;

  public PreviewService(WorkAccess access, TaskRepository tasks, PreviewRepository previews) {
    this.access = access;
    this.tasks = tasks;
    this.previews = previews;
  }

  /** Every start bumps the generation, which revokes URLs signed for an older one. */
  public Uni<PreviewView> set(Actor actor, SetPreview request) {
    WorkAccess.requireService(actor);
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    if (!STATES.contains(request.state())) {
      throw Failures.invalid("state must be starting, ready or stopped");
    }
    if (request.hostPort() != null && (request.hostPort() < 1 || request.hostPort() > 65_535)) {
      throw Failures.invalid("hostPort must be 1-65535");
    }
    if (request.command() != null && request.command().length() > 20_000) {
      throw Failures.invalid("the command exceeds 20,000 characters");
    }
    return Panache.withTransaction(() -> tasks.findById(taskId)
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .chain(task -> previews.findById(task.id).chain(existing -> {
          PreviewStateEntity row = existing == null ? fresh(task.id) : existing;
          if ("starting".equals(request.state())) {
            row.generation++;
          }
          row.state = request.state();
          row.hostPort = "stopped".equals(request.state()) ? null : request.hostPort();
          row.command = request.command();
          row.updatedAt = OffsetDateTime.now();
          return existing == null ? previews.persist(row) : Uni.createFrom().item(row);
        }))
        .map(PreviewService::toView));
  }

  /** The owner (or a service) reads it; no row means stopped. */
  public Uni<PreviewView> get(Actor actor, TaskRef request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    return Panache.withSession(() -> visibleTask(actor, taskId)
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .chain(task -> previews.findById(task.id)
            .map(row -> row == null ? new PreviewView(task.id.toString(), "stopped", 0, null, null, null) : toView(row))));
  }

  private Uni<TaskEntity> visibleTask(Actor actor, UUID taskId) {
    if (actor.role() == Actor.Role.SERVICE) {
      return tasks.findById(taskId);
    }
    return access.requireWorkUser(actor).chain(caller -> tasks.findOwned(taskId, caller.accountId()));
  }

  private static PreviewStateEntity fresh(UUID taskId) {
    PreviewStateEntity row = new PreviewStateEntity();
    row.taskId = taskId;
    row.generation = 0;
    return row;
  }

  static PreviewView toView(PreviewStateEntity p) {
    return new PreviewView(p.taskId.toString(), p.state, p.generation, p.hostPort, p.command,
        p.updatedAt == null ? null : p.updatedAt.toInstant());
  }
}
