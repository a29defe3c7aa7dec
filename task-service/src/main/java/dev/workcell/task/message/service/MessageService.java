package dev.workcell.task.message.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.PendingMessages;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.task.conversation.service.MessageLimits;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.conversation.MessageEntity;
import dev.workcell.task.conversation.MessageMapper;
import dev.workcell.task.conversation.repository.MessageRepository;
import dev.workcell.task.conversation.repository.OwnedPageQuery;
import dev.workcell.task.conversation.RunEntity;
import dev.workcell.task.conversation.repository.RunRepository;
import dev.workcell.task.run.service.RunService;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The conversation: owners post to an active run and read pages; the runner collects the messages
 * posted while it worked (its own messages arrive with its rounds and tool calls).
 */
@ApplicationScoped
public class MessageService {

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final RunRepository runs;
  private final MessageRepository messages;
  private final RunService runService;
  private final MessagePager pager;
  private final MessageMapper mapper;
  private final OwnedPageQuery ownedPages;

  public MessageService(WorkAccess access, TaskRepository tasks, RunRepository runs, MessageRepository messages,
      RunService runService, MessagePager pager, MessageMapper mapper, OwnedPageQuery ownedPages) {
    this.access = access;
    this.tasks = tasks;
    this.runs = runs;
    this.messages = messages;
    this.runService = runService;
    this.pager = pager;
    this.mapper = mapper;
    this.ownedPages = ownedPages;
  }

  /** A message to the active run: stored now, handed to the model at the run's next round. */
  public Uni<MessageView> post(Actor actor, PostMessage request) {
    String text = MessageLimits.requireUserMessage(request.content());
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    return Panache.withTransaction(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId()))
        .onItem().ifNull().failWith(Failures::taskNotFound)
        .call(task -> task.decommissioning ? Failures.fail(ErrorCode.TASK_DECOMMISSIONING, "the task is being deleted")
            : Uni.createFrom().voidItem())
        .chain(task -> runs.active(task.id))
        .onItem().ifNull().failWith(() -> Failures.error(ErrorCode.NO_ACTIVE_RUN, "the task has no active run"))
        .chain(run -> {
          MessageEntity message = newMessage(run, MessageRole.USER, text);
          message.sentDuringRun = true;
          return messages.persist(message);
        })
        .map(mapper::toView));
  }

  /**
   * Older messages, oldest first within the page. The busiest read: access, ownership and the page
   * are one statement ({@link OwnedPageQuery}); the access rules are the same as everywhere else.
   */
  public Uni<MessagePage> page(Actor actor, PageMessages request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    UUID accountId = WorkAccess.accountId(actor);
    int limit = MessagePager.limit(request);
    return ownedPages.read(accountId, taskId, MessagePager.before(request), limit, Limits.MESSAGE_PAGE_MAX_BYTES)
        .map(read -> {
          WorkAccess.requireWorkUser(actor, accountId, read.role(), read.status(), read.mode());
          if (!read.owned()) {
            throw Failures.taskNotFound();
          }
          return pager.assemble(read.rows());
        });
  }

  /** Hands the run the messages posted since its last round, exactly once. */
  public Uni<PendingMessages> pending(Actor actor, RunRef request) {
    WorkAccess.requireService(actor);
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> runService.runOf(request.taskId(), request.runId())
        .chain(run -> messages.lockUndelivered(run.id)
            .map(found -> {
              found.forEach(m -> m.deliveredAt = now);
              return new PendingMessages(RunState.fromWire(run.state), found.stream().map(mapper::toView).toList());
            })));
  }

  private static MessageEntity newMessage(RunEntity run, MessageRole role, String content) {
    MessageEntity message = new MessageEntity();
    message.taskId = run.taskId;
    message.runId = run.id;
    message.role = role.wire();
    message.content = content;
    message.createdAt = OffsetDateTime.now();
    return message;
  }
}
