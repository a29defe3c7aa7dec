package dev.workcell.task.message.repository;

import dev.workcell.task.message.MessageEntity;
import dev.workcell.task.support.Times;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class MessageRepository implements PanacheRepositoryBase<MessageEntity, Long> {

  /** Size of a stored message as it counts against page and context caps. */
  private static final String BYTES = "octet_length(content) + coalesce(octet_length(tool_calls), 0)";

  /** One row of metadata: enough to decide a page or a context window without loading contents. */
  public record Meta(long id, String role, String toolCallId, long bytes) {}

  /** Metadata of up to {@code limit} messages older than {@code beforeId}, newest first. */
  public Uni<List<Meta>> metaBefore(UUID taskId, long beforeId, int limit, boolean withoutSystem) {
    String sql = "select id, role, tool_call_id, (" + BYTES + ")::bigint from messages where task_id = ?1 and id < ?2"
        + (withoutSystem ? " and role <> 'system'" : "") + " order by id desc limit ?3";
    return getSession().chain(session -> session.<Object[]>createNativeQuery(sql)
            .setParameter(1, taskId).setParameter(2, beforeId).setParameter(3, limit)
            .getResultList())
        .map(rows -> rows.stream()
            .map(r -> new Meta(((Number) r[0]).longValue(), (String) r[1], (String) r[2], ((Number) r[3]).longValue()))
            .toList());
  }

  /**
   * A page in one query: up to {@code limit} messages older than {@code beforeId}, newest first,
   * cut where their running size passes {@code maxBytes}. Rows are detached values, not managed
   * entities: a page is read-only and the largest read there is. {@code fetched} counts the rows
   * looked at before the cut, so the caller knows whether older ones remain.
   */
  public Uni<List<PageRow>> page(UUID taskId, long beforeId, int limit, long maxBytes) {
    String sql = "select id, run_id, role, content, tool_call_id, tool_calls, sent_during_run, delivered_at, truncated,"
        + " created_at, running, fetched from (select l.*, sum(" + BYTES + ") over (order by id desc rows unbounded"
        + " preceding) as running, count(*) over () as fetched from (select * from messages where task_id = ?1"
        + " and id < ?2 order by id desc limit ?3) l) w where running <= ?4 order by id desc";
    return getSession().chain(session -> session.<Object[]>createNativeQuery(sql)
            .setParameter(1, taskId).setParameter(2, beforeId).setParameter(3, limit).setParameter(4, maxBytes)
            .getResultList())
        .map(rows -> rows.stream().map(r -> {
          MessageEntity m = new MessageEntity();
          m.id = ((Number) r[0]).longValue();
          m.taskId = taskId;
          m.runId = (UUID) r[1];
          m.role = (String) r[2];
          m.content = (String) r[3];
          m.toolCallId = (String) r[4];
          m.toolCalls = (String) r[5];
          m.sentDuringRun = (Boolean) r[6];
          m.deliveredAt = Times.offset(r[7]);
          m.truncated = (Boolean) r[8];
          m.createdAt = Times.offset(r[9]);
          return new PageRow(m, ((Number) r[10]).longValue(), ((Number) r[11]).intValue());
        }).toList());
  }

  /** A message of a page with its running size (newest first) and how many rows were looked at. */
  public record PageRow(MessageEntity message, long runningBytes, int fetched) {}

  public Uni<List<MessageEntity>> byIds(List<Long> ids) {
    // Read-only: pages and contexts never change these rows, so Hibernate keeps no snapshots of them.
    return ids.isEmpty() ? Uni.createFrom().item(List.of())
        : getSession().chain(session -> session
            .createSelectionQuery("from MessageEntity where id in :ids order by id", MessageEntity.class)
            .setParameter("ids", ids).setReadOnly(true).getResultList());
  }

  /** The run's mid-run messages not yet handed to it, locked so two rounds cannot both take them. */
  public Uni<List<MessageEntity>> lockUndelivered(UUID runId) {
    return find("runId = ?1 and sentDuringRun = true and deliveredAt is null order by id", runId)
        .withLock(LockModeType.PESSIMISTIC_WRITE).list();
  }
}
