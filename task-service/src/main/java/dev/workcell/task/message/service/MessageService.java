package dev.workcell.task.message.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.AppendMessage;
import dev.workcell.contracts.task.RunnerApi.PendingMessages;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.task.conversation.service.MessageLimits;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.conversation.MessageEntity;
import dev.workcell.task.conversation.MessageMapper;
import dev.workcell.task.conversation.repository.MessageRepository;
import dev.workcell.task.conversation.repository.ActiveRunAppend;
import dev.workcell.task.conversation.repository.OwnedPageQuery;
import dev.workcell.task.conversation.RunEntity;
import dev.workcell.task.conversation.repository.RunRepository;
import dev.workcell.task.run.service.RunService;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.support.Text;
import dev.workcell.task.support.Times;
import dev.workcell.task.conversation.repository.TaskRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * The conversation: owners post to an active run and read pages; the runner appends assistant and
 * tool messages and collects the messages posted while it worked.
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
  private final ActiveRunAppend appends;

  public MessageService(WorkAccess access, TaskRepository tasks, RunRepository runs, MessageRepository messages,
      RunService runService, MessagePager pager, MessageMapper mapper, OwnedPageQuery ownedPages,
      ActiveRunAppend appends) {
    this.access = access;
    this.tasks = tasks;
    this.runs = runs;
    this.messages = messages;
    this.runService = runService;
    this.pager = pager;
    this.mapper = mapper;
    this.ownedPages = ownedPages;
    this.appends = appends;
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

  /**
   * The runner appends to an active run. Tool results are stored up to 20,000 characters and other
   * content up to 100 kB, each with a marker when cut: a run never fails on a long answer.
   */
  public Uni<MessageView> append(Actor actor, AppendMessage request) {
    WorkAccess.requireService(actor);
    MessageRole role = request.role();
    if (role == null) {
      throw Failures.invalid("role must be assistant, tool or system");
    }
    if (role == MessageRole.USER) {
      throw Failures.invalid("user messages come from the owner, not the runner");
    }
    if (request.content() == null) {
      throw Failures.invalid("content is required (may be empty)");
    }
    if (role == MessageRole.TOOL && (request.toolCallId() == null || request.toolCallId().isBlank())) {
      throw Failures.invalid("a tool message names the toolCallId it answers");
    }
    String toolCalls = role == MessageRole.ASSISTANT ? mapper.encodeToolCalls(boundArguments(request.toolCalls())) : null;
    if (toolCalls != null && Text.utf8Length(toolCalls) > Limits.STORED_MESSAGE_MAX_BYTES) {
      throw Failures.invalid("the tool calls exceed " + Limits.STORED_MESSAGE_MAX_BYTES + " bytes");
    }
    Text.Bounded content = role == MessageRole.TOOL
        ? Text.boundChars(request.content(), Limits.STORED_TOOL_OUTPUT_CHARS)
        : Text.boundBytes(request.content(), Limits.STORED_MESSAGE_MAX_BYTES);
    UUID taskId = Ids.parse(request.taskId()).orElse(null);
    UUID runId = Ids.parse(request.runId()).orElse(null);
    if (taskId == null || runId == null) {
      return Failures.fail(ErrorCode.NOT_FOUND, "no such run");
    }
    // The runner's hottest write: one autocommitted prepared statement, no ORM session; only a refused
    // append opens one to say why.
    return appends.append(taskId, runId, role.wire(), content.text(), request.toolCallId(), toolCalls,
            content.truncated())
        .chain(row -> row != null ? Uni.createFrom().item(row)
            : Panache.withSession(() -> runService.runOf(request.taskId(), request.runId())).chain(run -> Failures.<Object[]>fail(
                ErrorCode.CONFLICT, "the run is " + run.state + "; nothing more is appended to it")))
        .map(row -> {
          MessageEntity message = new MessageEntity();
          message.id = ((Number) row[0]).longValue();
          message.taskId = taskId;
          message.runId = runId;
          message.role = role.wire();
          message.content = content.text();
          message.toolCallId = request.toolCallId();
          message.toolCalls = toolCalls;
          message.truncated = content.truncated();
          message.createdAt = Times.offset(row[1]);
          return mapper.toView(message);
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

  /** Arguments are replayed to the provider, so an over-long one becomes small valid JSON. */
  private static List<ToolCall> boundArguments(List<ToolCall> calls) {
    if (calls == null) {
      return null;
    }
    return calls.stream().map(call -> {
      if (call.id() == null || call.name() == null) {
        throw Failures.invalid("every tool call has an id and a name");
      }
      String args = call.arguments();
      if (args != null && args.length() > Limits.STORED_TOOL_OUTPUT_CHARS) {
        args = "{\"truncated\":true,\"originalChars\":" + args.length() + "}";
      }
      return new ToolCall(call.id(), call.name(), args);
    }).toList();
  }
}
