package dev.workcell.task.task.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskList;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskApi.UpdateTask;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects.KnownTasks;
import dev.workcell.contracts.task.TaskSubjects.KnownTasksReply;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.approval.repository.ApprovalRepository;
import dev.workcell.task.audit.service.AuditLog;
import dev.workcell.task.conversation.MessageMapper;
import dev.workcell.task.conversation.service.MessageLimits;
import dev.workcell.task.message.service.MessagePager;
import dev.workcell.task.conversation.RunMapper;
import dev.workcell.task.conversation.repository.RunRepository;
import dev.workcell.task.run.service.RunQueue;
import dev.workcell.task.run.service.RunService;
import dev.workcell.task.sandbox.SandboxRuntime;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.TaskEntity;
import dev.workcell.task.conversation.TaskMapper;
import dev.workcell.task.conversation.repository.TaskCreateStatements;
import dev.workcell.task.conversation.repository.TaskCreateStatements.PolicyFacts;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** The rules of tasks: creation under the caps, owner-only reads, renames and route changes. */
@ApplicationScoped
public class TaskService {

  private static final int KNOWN_TASKS_MAX = 10_000;
  private static final int ADMIN_LIST_MAX = 2_000;

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final RunRepository runs;
  private final TaskCreateStatements createStatements;
  private final ApprovalRepository approvals;
  private final RunService runService;
  private final MessagePager pager;
  private final MessageMapper messageMapper;
  private final TaskCaps caps;
  private final AuditLog audit;
  private final RunQueue queue;
  private final ObjectMapper json;
  private final SandboxRuntime sandboxes;

  public TaskService(WorkAccess access, TaskRepository tasks, RunRepository runs, TaskCreateStatements createStatements,
      ApprovalRepository approvals, RunService runService, MessagePager pager, MessageMapper messageMapper,
      TaskCaps caps, AuditLog audit, RunQueue queue, ObjectMapper json, SandboxRuntime sandboxes) {
    this.sandboxes = sandboxes;
    this.access = access;
    this.tasks = tasks;
    this.runs = runs;
    this.createStatements = createStatements;
    this.approvals = approvals;
    this.runService = runService;
    this.pager = pager;
    this.messageMapper = messageMapper;
    this.caps = caps;
    this.audit = audit;
    this.queue = queue;
    this.json = json;
  }

  /**
   * A task, its first run and its first message, in one transaction that checks the caps first and
   * writes all rows (audit entry included) in one statement; the run is queued for agent-runner once
   * committed.
   */
  public Uni<TaskCreated> create(Actor actor, CreateTask request) {
    String message = MessageLimits.requireUserMessage(request.message());
    TaskRules.Route route = TaskRules.requireRoute(request.providerKind(), request.providerId(), request.model());
    String title = request.title() == null ? TaskRules.deriveTitle(message) : TaskRules.requireTitle(request.title());
    UUID policyId = request.policyId() == null ? null
        : Ids.parse(request.policyId()).orElseThrow(() -> Failures.invalid("no such runtime policy"));
    Map<String, String> detail = new LinkedHashMap<>(Map.of("title", title, "providerKind", route.kind(),
        "providerId", route.providerId(), "model", route.model()));
    OffsetDateTime now = OffsetDateTime.now();
    return createStatements.inTransaction(connection -> caps.authorizeAndLockOwner(connection, actor)
        .chain(caller -> hostFolder(caller, request.workspaceFolder()).chain(folder -> policy(connection, policyId).chain(policy -> {
          TaskEntity task = newTask(caller.accountId(), title, route, policy, now);
          task.workspaceFolder = folder;
          if (folder != null) {
            detail.put("workspaceFolder", folder);
          }
          String auditDetail = auditDetail(detail);
          RunService.Opened opened = runService.prepare(task, message, now);
          // Far from the caps the counts ride on the insert; a refused insert takes the exact path.
          return createStatements.insertWithFirstRun(connection, task, opened.run(), opened.message(), actor, auditDetail,
                  caps.ownerBelow(), caps.globalFarBelow())
              .chain(id -> id != null ? Uni.createFrom().item(id) : caps.admitNearCaps(connection, task.ownerId)
                  .chain(() -> createStatements.insertWithFirstRun(connection, task, opened.run(), opened.message(),
                      actor, auditDetail, caps.ownerBelow(), caps.globalBelow()))
                  .onItem().ifNull().failWith(() -> Failures.error(ErrorCode.TOO_MANY_TASKS, "the task caps are reached")))
              .map(messageId -> {
                opened.message().id = messageId;
                return new TaskCreated(TaskMapper.toView(task), RunMapper.toView(opened.run()),
                    messageMapper.toView(opened.message()));
              });
        }))))
        .call(created -> queue.enqueue(actor, created.task().id(), created.run().id()));
  }

  /** The caller's own tasks, most recently changed first (admins included: see {@link #listAll}). */
  public Uni<TaskList> list(Actor actor) {
    return Panache.withSession(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.ownedBy(caller.accountId()))
        .map(TaskService::toList));
  }

  /** Every account's tasks: the explicit admin view. */
  public Uni<TaskList> listAll(Actor actor) {
    return Panache.withSession(() -> access.requireAdmin(actor)
        .chain(() -> tasks.newest(ADMIN_LIST_MAX))
        .map(TaskService::toList));
  }

  /** The task, its latest run and the newest page of messages. */
  public Uni<TaskDetail> get(Actor actor, TaskRef request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    return Panache.withSession(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .chain(task -> runs.latest(task.id)
            .chain(run -> pager.newest(task.ownerId, task.id)
                .chain(page -> approvals.countPending(task.id)
                    .map(pending -> new TaskDetail(TaskMapper.toView(task), RunMapper.toView(run), page,
                        pending.intValue()))))));
  }


  /** Renames or re-routes; the active run keeps the route it started with. */
  public Uni<TaskView> update(Actor actor, UpdateTask request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    String title = request.title() == null ? null : TaskRules.requireTitle(request.title());
    boolean reroute = request.providerKind() != null || request.providerId() != null || request.model() != null;
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .call(task -> task.decommissioning ? Failures.fail(ErrorCode.TASK_DECOMMISSIONING, "the task is being deleted")
            : Uni.createFrom().voidItem())
        .call(task -> {
          if (title != null) {
            task.title = title;
          }
          if (!reroute) {
            task.updatedAt = now;
            return Uni.createFrom().voidItem();
          }
          TaskRules.Route route = TaskRules.requireRoute(
              request.providerKind() != null ? request.providerKind() : ProviderKind.fromWire(task.providerKind),
              Objects.requireNonNullElse(request.providerId(), task.providerId),
              Objects.requireNonNullElse(request.model(), task.model));
          Map<String, String> detail = new LinkedHashMap<>();
          detail.put("from", task.providerKind + "/" + task.providerId + "/" + task.model);
          detail.put("to", route.kind() + "/" + route.providerId() + "/" + route.model());
          task.providerKind = route.kind();
          task.providerId = route.providerId();
          task.model = route.model();
          task.updatedAt = now;
          return audit.record(actor, "task.route.change", task.id, detail);
        })
        .map(TaskMapper::toView));
  }

  /** Moves the seen marker forward (never back), so another device cannot resurrect an unread dot. */
  public Uni<TaskView> markSeen(Actor actor, TaskRef request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .invoke(task -> {
          if (task.seenAt == null || task.seenAt.isBefore(now)) {
            task.seenAt = now;
          }
        })
        .map(TaskMapper::toView));
  }

  /** Which ids name existing tasks; sandbox-service tells orphans from live sandboxes with it. */
  public Uni<KnownTasksReply> known(Actor actor, KnownTasks request) {
    WorkAccess.requireService(actor);
    List<String> given = request.taskIds() == null ? List.of() : request.taskIds();
    if (given.size() > KNOWN_TASKS_MAX) {
      throw Failures.invalid("at most " + KNOWN_TASKS_MAX + " ids per request");
    }
    List<UUID> ids = given.stream().map(Ids::parse).flatMap(java.util.Optional::stream).distinct().toList();
    if (ids.isEmpty()) {
      return Uni.createFrom().item(new KnownTasksReply(List.of()));
    }
    return Panache.withSession(() -> tasks.existing(ids))
        .map(found -> new KnownTasksReply(found.stream().map(UUID::toString).toList()));
  }

  /** The audit entry's detail, as {@link AuditLog} writes it. */
  private String auditDetail(Map<String, String> detail) {
    try {
      return json.writeValueAsString(detail);
    } catch (JsonProcessingException e) {
      return String.valueOf(detail);
    }
  }

  /**
   * The real path of the host folder the task asks for, checked by sandbox-service (decision 0023) for
   * the caller with the role just read from the database; null when the task asks for none.
   */
  private Uni<String> hostFolder(WorkAccess.Caller caller, String folder) {
    if (folder == null) {
      return Uni.createFrom().nullItem();
    }
    return sandboxes.checkHostFolder(new Actor(caller.accountId().toString(), caller.role()), folder);
  }

  private Uni<PolicyFacts> policy(SqlConnection connection, UUID policyId) {
    if (policyId == null) {
      return Uni.createFrom().nullItem();
    }
    return createStatements.policy(connection, policyId).onItem().ifNull().failWith(() -> Failures.invalid("no such runtime policy"));
  }

  private static TaskEntity newTask(UUID ownerId, String title, TaskRules.Route route, PolicyFacts policy,
      OffsetDateTime now) {
    TaskEntity task = new TaskEntity();
    task.id = UUID.randomUUID();
    task.ownerId = ownerId;
    task.title = title;
    task.providerKind = route.kind();
    task.providerId = route.providerId();
    task.model = route.model();
    task.policyId = policy == null ? null : policy.id();
    // No policy means the deployment defaults: network on. There is no per-task network switch.
    task.networkEnabled = policy == null || policy.networkEnabled();
    task.approvalsEnabled = policy != null && policy.requireApproval();
    // Runtime names are derived here, never taken from a request.
    task.sandboxName = "workcell-task-" + task.id;
    task.volumeName = "workcell-ws-" + task.id; // the name sandbox-service gives the volume (SandboxNames)
    task.state = TaskState.IDLE.wire();
    task.createdAt = now;
    task.updatedAt = now;
    return task;
  }

  private static TaskList toList(List<TaskEntity> entities) {
    return new TaskList(entities.stream().map(TaskMapper::toView).toList());
  }
}
