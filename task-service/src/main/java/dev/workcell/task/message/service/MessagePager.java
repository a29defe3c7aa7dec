package dev.workcell.task.message.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.task.message.MessageMapper;
import dev.workcell.task.message.repository.MessageRepository;
import dev.workcell.task.message.repository.MessageRepository.PageRow;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Cursor paging of a conversation: at most 200 messages and 1,000,000 bytes a page, cut by the
 * database so contents beyond the byte cap never leave it.
 */
@ApplicationScoped
public class MessagePager {

  static final int DEFAULT_LIMIT = 50;

  private final MessageRepository messages;
  private final MessageMapper mapper;

  public MessagePager(MessageRepository messages, MessageMapper mapper) {
    this.messages = messages;
    this.mapper = mapper;
  }

  /** Must run inside a session, after the caller's ownership of {@code taskId} was checked. */
  public Uni<MessagePage> page(UUID taskId, PageMessages request) {
    int limit = limit(request);
    return messages.page(taskId, before(request), limit + 1, Limits.MESSAGE_PAGE_MAX_BYTES)
        .map(rows -> assemble(rows, limit));
  }

  /** The page size a request asks for, within the cap. */
  public static int limit(PageMessages request) {
    return request.limit() <= 0 ? DEFAULT_LIMIT : Math.min(request.limit(), Limits.MESSAGE_PAGE_MAX_MESSAGES);
  }

  /** The cursor a request starts below. */
  public static long before(PageMessages request) {
    return request.beforeId() == null ? Long.MAX_VALUE : request.beforeId();
  }

  /**
   * The page from up to {@code limit + 1} rows read newest first (one more than the page, so whether
   * older ones remain is known without a second query).
   */
  public MessagePage assemble(List<PageRow> rows, int limit) {
    List<PageRow> page = rows.size() > limit ? rows.subList(0, limit) : rows;
    boolean more = !page.isEmpty() && page.get(0).fetched() > page.size();
    Long next = more ? page.get(page.size() - 1).message().id : null;
    long bytes = page.isEmpty() ? 0 : page.get(page.size() - 1).runningBytes();
    List<MessageView> views = new ArrayList<>(page.size());
    for (int i = page.size() - 1; i >= 0; i--) {
      views.add(mapper.toView(page.get(i).message()));
    }
    return new MessagePage(views, next, bytes);
  }
}
