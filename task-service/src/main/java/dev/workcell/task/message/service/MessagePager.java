package dev.workcell.task.message.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.task.conversation.MessageMapper;
import dev.workcell.task.conversation.repository.OwnedPageQuery;
import dev.workcell.task.conversation.repository.OwnedPageQuery.PageRow;
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

  private final OwnedPageQuery ownedPages;
  private final MessageMapper mapper;

  public MessagePager(OwnedPageQuery ownedPages, MessageMapper mapper) {
    this.ownedPages = ownedPages;
    this.mapper = mapper;
  }

  /** The newest page of a task whose owner was already checked (the task view). */
  public Uni<MessagePage> newest(UUID ownerId, UUID taskId) {
    return ownedPages.read(ownerId, taskId, Long.MAX_VALUE, DEFAULT_LIMIT, Limits.MESSAGE_PAGE_MAX_BYTES)
        .map(read -> assemble(read.rows()));
  }

  /** The page size a request asks for, within the cap. */
  public static int limit(PageMessages request) {
    return request.limit() <= 0 ? DEFAULT_LIMIT : Math.min(request.limit(), Limits.MESSAGE_PAGE_MAX_MESSAGES);
  }

  /** The cursor a request starts below. */
  public static long before(PageMessages request) {
    return request.beforeId() == null ? Long.MAX_VALUE : request.beforeId();
  }

  /** The page from its rows read newest first; the oldest row knows whether older ones remain. */
  public MessagePage assemble(List<PageRow> page) {
    boolean more = !page.isEmpty() && page.get(page.size() - 1).olderExists();
    Long next = more ? page.get(page.size() - 1).message().id : null;
    long bytes = page.isEmpty() ? 0 : page.get(page.size() - 1).runningBytes();
    List<MessageView> views = new ArrayList<>(page.size());
    for (int i = page.size() - 1; i >= 0; i--) {
      views.add(mapper.toView(page.get(i).message()));
    }
    return new MessagePage(views, next, bytes);
  }
}
