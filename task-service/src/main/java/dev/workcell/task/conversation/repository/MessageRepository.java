package dev.workcell.task.conversation.repository;

import dev.workcell.task.conversation.MessageEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class MessageRepository implements PanacheRepositoryBase<MessageEntity, Long> {

  /** Size of a stored message (aliased {@code m}) as it counts against page and context caps. */
  static final String BYTES = "octet_length(m.content) + coalesce(octet_length(m.tool_calls), 0)";

  /** One row of metadata: enough to decide a page or a context window without loading contents. */
  public record Meta(long id, String role, String toolCallId, long bytes) {}

  /** Metadata of up to {@code limit} messages older than {@code beforeId}, newest first. */
  public Uni<List<Meta>> metaBefore(UUID taskId, long beforeId, int limit, boolean withoutSystem) {
    String sql = "select m.id, m.role, m.tool_call_id, (" + BYTES + ")::bigint from messages m where m.task_id = ?1"
        + " and m.id < ?2" + (withoutSystem ? " and m.role <> 'system'" : "") + " order by m.id desc limit ?3";
    return getSession().chain(session -> session.<Object[]>createNativeQuery(sql)
            .setParameter(1, taskId).setParameter(2, beforeId).setParameter(3, limit)
            .getResultList())
        .map(rows -> rows.stream()
            .map(r -> new Meta(((Number) r[0]).longValue(), (String) r[1], (String) r[2], ((Number) r[3]).longValue()))
            .toList());
  }

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
