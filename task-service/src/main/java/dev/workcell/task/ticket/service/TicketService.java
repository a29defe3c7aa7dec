package dev.workcell.task.ticket.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.TicketApi.ConsumeTicket;
import dev.workcell.contracts.task.TicketApi.IssueTicket;
import dev.workcell.contracts.task.TicketApi.TicketGrant;
import dev.workcell.contracts.task.TicketApi.TicketIssued;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.repository.TaskRepository;
import dev.workcell.task.ticket.TicketEntity;
import dev.workcell.task.ticket.repository.TicketRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.UUID;

/**
 * One-time WebSocket tickets for the terminal and the screen. Consuming one re-checks the account
 * (active, Work access) and the task's ownership now, not when the ticket was issued.
 */
@ApplicationScoped
public class TicketService {

  private static final Set<String> AUDIENCES = Set.of("terminal", "screen");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final WorkAccess access;
  private final TaskRepository tasks;
  private final TicketRepository tickets;

  public TicketService(WorkAccess access, TaskRepository tasks, TicketRepository tickets) {
    this.access = access;
    this.tasks = tasks;
    this.tickets = tickets;
  }

  public Uni<TicketIssued> issue(Actor actor, IssueTicket request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    String audience = requireAudience(request.audience());
    byte[] raw = new byte[32];
    RANDOM.nextBytes(raw);
    String ticket = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> access.requireWorkUser(actor)
        .chain(caller -> tasks.findOwned(taskId, caller.accountId())
            .onItem().ifNull().failWith(Failures::taskNotFound)
            .call(() -> tickets.deleteExpiredBefore(now.minusHours(1)))
            .chain(task -> {
              TicketEntity entity = new TicketEntity();
              entity.id = UUID.randomUUID();
              entity.tokenHash = hash(ticket);
              entity.audience = audience;
              entity.taskId = task.id;
              entity.accountId = caller.accountId();
              entity.createdAt = now;
              entity.expiresAt = now.plusSeconds(Limits.WEBSOCKET_TICKET_SECONDS);
              return tickets.persist(entity);
            }))
        .map(entity -> new TicketIssued(ticket, entity.taskId.toString(), audience, entity.expiresAt.toInstant())));
  }

  public Uni<TicketGrant> consume(Actor actor, ConsumeTicket request) {
    WorkAccess.requireService(actor);
    UUID taskId = Ids.parse(request.taskId()).orElse(null);
    if (taskId == null || request.ticket() == null || request.ticket().length() > 200 || request.audience() == null) {
      return refused();
    }
    String hash = hash(request.ticket());
    OffsetDateTime now = OffsetDateTime.now();
    // The use is committed on its own: a ticket refused by the checks below stays spent.
    return Panache.withTransaction(() -> tickets.consume(hash, request.audience(), taskId, now)
            .chain(consumed -> consumed == 1 ? tickets.byHash(hash) : refused()))
        .chain(ticket -> Panache.withSession(() -> access
            .requireStoredWorkUser(new Actor(ticket.accountId.toString(), Actor.Role.USER))
            .chain(caller -> tasks.findOwned(ticket.taskId, caller.accountId())
                .onItem().ifNull().failWith(Failures::taskNotFound)
                .map(task -> new TicketGrant(caller.accountId().toString(), caller.role().wire(), task.id.toString(),
                    ticket.audience)))));
  }

  private static <T> Uni<T> refused() {
    return Failures.fail(ErrorCode.UNAUTHENTICATED, "the ticket is unknown, used, expired or not for this task");
  }

  private static String requireAudience(String audience) {
    if (audience == null || !AUDIENCES.contains(audience)) {
      throw Failures.invalid("audience must be terminal or screen");
    }
    return audience;
  }

  static String hash(String ticket) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(ticket.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
