package dev.workcell.contracts.task;

import dev.workcell.contracts.RoleName;
import java.time.Instant;

/**
 * One-time WebSocket tickets: the browser trades its bearer token for a short-lived ticket bound to
 * one audience (terminal, screen) and one task. Only a hash of the ticket is stored.
 */
public final class TicketApi {

  private TicketApi() {}

  public record IssueTicket(String taskId, String audience) {}

  public record TicketIssued(String ticket, String taskId, String audience, Instant expiresAt) {}

  /** Service actors only (terminal-service); fails unauthenticated when unknown, used, expired or mismatched. */
  public record ConsumeTicket(String ticket, String audience, String taskId) {}

  /** The account the ticket was issued to, re-checked now: active, with Work access, owning the task. */
  public record TicketGrant(String accountId, RoleName role, String taskId, String audience) {}
}
