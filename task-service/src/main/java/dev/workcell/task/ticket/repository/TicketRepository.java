package dev.workcell.task.ticket.repository;

import dev.workcell.task.ticket.TicketEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.UUID;

@ApplicationScoped
public class TicketRepository implements PanacheRepositoryBase<TicketEntity, UUID> {

  /** Marks the ticket used if it is unused, unexpired and bound to this audience and task: one winner. */
  public Uni<Integer> consume(String hash, String audience, UUID taskId, OffsetDateTime now) {
    return update("consumedAt = ?1 where tokenHash = ?2 and audience = ?3 and taskId = ?4 and consumedAt is null"
        + " and expiresAt > ?1", now, hash, audience, taskId);
  }

  public Uni<TicketEntity> byHash(String hash) {
    return find("tokenHash", hash).firstResult();
  }

  /** Old tickets are useless; dropping them keeps the table small. */
  public Uni<Long> deleteExpiredBefore(OffsetDateTime cutoff) {
    return delete("expiresAt < ?1", cutoff);
  }
}
