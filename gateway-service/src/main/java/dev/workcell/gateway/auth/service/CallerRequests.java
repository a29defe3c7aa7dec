package dev.workcell.gateway.auth.service;

import dev.workcell.contracts.Actor;
import dev.workcell.messaging.NatsRequester;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * NATS requests made for the current HTTP caller. The account is read fresh on every request and
 * sent as the actor; ownership is decided by the service that answers, never here.
 */
@ApplicationScoped
public class CallerRequests {

  private final CurrentAccount accounts;
  private final JsonWebToken token;
  private final NatsRequester nats;

  public CallerRequests(CurrentAccount accounts, JsonWebToken token, NatsRequester nats) {
    this.accounts = accounts;
    this.token = token;
    this.nats = nats;
  }

  public Uni<Actor> actor() {
    return accounts.actor(token);
  }

  public <T> Uni<T> ask(String subject, Object body, Class<T> replyType) {
    return actor().chain(actor -> nats.request(subject, body, replyType, actor));
  }

  public <T> Uni<T> ask(String subject, Object body, Class<T> replyType, Duration deadline) {
    return actor().chain(actor -> nats.request(subject, body, replyType, actor, deadline));
  }

  public <T> Uni<T> as(Actor actor, String subject, Object body, Class<T> replyType) {
    return nats.request(subject, body, replyType, actor);
  }

  public <T> Uni<T> as(Actor actor, String subject, Object body, Class<T> replyType, Duration deadline) {
    return nats.request(subject, body, replyType, actor, deadline);
  }
}
