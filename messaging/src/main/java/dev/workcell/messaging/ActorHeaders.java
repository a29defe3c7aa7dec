package dev.workcell.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.MessageHeaders;
import io.nats.client.impl.Headers;
import java.util.Optional;

/** Writes and reads the acting account on NATS headers. */
public final class ActorHeaders {

  private ActorHeaders() {}

  public static Headers write(Headers headers, Actor actor, String traceparent) {
    headers.put(MessageHeaders.ACCOUNT_ID, actor.accountId());
    headers.put(MessageHeaders.ACCOUNT_ROLE, actor.role().wire());
    headers.put(MessageHeaders.TRACEPARENT, traceparent);
    return headers;
  }

  /** The actor named by the headers, or empty when absent or malformed. */
  public static Optional<Actor> read(Headers headers) {
    if (headers == null) {
      return Optional.empty();
    }
    String id = headers.getFirst(MessageHeaders.ACCOUNT_ID);
    String role = headers.getFirst(MessageHeaders.ACCOUNT_ROLE);
    if (id == null || id.isBlank() || role == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Actor(id, Actor.Role.fromWire(role)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  public static String traceparent(Headers headers) {
    return headers == null ? null : headers.getFirst(MessageHeaders.TRACEPARENT);
  }
}
