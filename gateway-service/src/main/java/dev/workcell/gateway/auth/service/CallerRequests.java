package dev.workcell.gateway.auth.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.function.Function;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * NATS requests made for the current HTTP caller. The account is checked fresh on every request
 * and sent as the actor; ownership is decided by the service that answers, never here. No account
 * state is kept between requests.
 *
 * <p>A subject of {@link TaskSubjects#CALLER_CHECKED} is one round trip: task-service checks the
 * account (status, Work access, stored role) in its handler before it reads or changes anything
 * (see {@link #checkedByTaskService}).
 * For everything else, safe requests (GET, HEAD) send the account read and the operation together
 * and release the answer only when the account check passes with the very actor the operation was
 * sent for; any other method checks the account first, so a refused account never causes a change.
 */
@ApplicationScoped
public class CallerRequests {

  private final CurrentAccount accounts;
  private final JsonWebToken token;
  private final NatsRequester nats;
  private final CurrentVertxRequest http;

  public CallerRequests(CurrentAccount accounts, JsonWebToken token, NatsRequester nats, CurrentVertxRequest http) {
    this.accounts = accounts;
    this.token = token;
    this.nats = nats;
    this.http = http;
  }

  /** The checked actor alone (sequential); for operations that need it before their first request. */
  public Uni<Actor> actor() {
    return accounts.actor(token);
  }

  /**
   * Runs {@code request} for the checked actor: concurrently with the account read on a safe
   * method (the answer is held until the check passes, and made again if the role turned out to
   * differ from the token's), after it otherwise. A refused account gets the refusal, never the answer.
   */
  public <T> Uni<T> call(Function<Actor, Uni<T>> request) {
    if (!safeMethod()) {
      return actor().chain(actor -> request.apply(actor));
    }
    Actor expected = expectedActor();
    Uni<Actor> checked = actor();
    // Captured as a value, so an early failure of the operation cannot overtake the account's refusal.
    Uni<Outcome<T>> speculative = Uni.createFrom().deferred(() -> request.apply(expected))
        .onItemOrFailure().transform(Outcome::new);
    return Uni.combine().all().unis(checked, speculative).asTuple().chain(both -> {
      Actor actor = both.getItem1();
      Outcome<T> outcome = both.getItem2();
      if (!actor.equals(expected)) {
        return request.apply(actor); // the role changed since the token was issued: ask again as the account is now
      }
      return outcome.failure() != null ? Uni.createFrom().failure(outcome.failure()) : Uni.createFrom().item(outcome.item());
    });
  }

  public <T> Uni<T> ask(String subject, Object body, Class<T> replyType) {
    return ask(subject, actor -> nats.request(subject, body, replyType, actor));
  }

  public <T> Uni<T> ask(String subject, Object body, Class<T> replyType, Duration deadline) {
    return ask(subject, actor -> nats.request(subject, body, replyType, actor, deadline));
  }

  private <T> Uni<T> ask(String subject, Function<Actor, Uni<T>> request) {
    return TaskSubjects.CALLER_CHECKED.contains(subject) ? checkedByTaskService(request) : call(request);
  }

  /**
   * Runs {@code request} for the role the token claims, without a separate account read:
   * task-service refuses a refused account itself, and a claimed role that is no longer the stored
   * one with role_changed before it does anything; then the account is read and {@code request}
   * runs again as the account is now. Only for a request whose <b>first</b> NATS request is a
   * {@link TaskSubjects#CALLER_CHECKED} subject sent for the given actor, with nothing sent before it
   * answers: its success is what proves the actor, so later requests (to sandbox-service, say) may
   * use it.
   */
  public <T> Uni<T> checkedByTaskService(Function<Actor, Uni<T>> request) {
    String accountId = token.getSubject();
    if (accountId == null || accountId.isBlank()) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.UNAUTHENTICATED, "a bearer token is required"));
    }
    // Read from the token here, on the request's thread: the recovery runs where the reply arrived.
    Actor claimed = expectedActor();
    return request.apply(claimed)
        .onFailure(CallerRequests::roleChanged).recoverWithUni(() -> accounts.actor(accountId).chain(actor -> request.apply(actor)));
  }

  private static boolean roleChanged(Throwable failure) {
    return failure instanceof WorkcellException e && e.code() == ErrorCode.ROLE_CHANGED;
  }

  public <T> Uni<T> as(Actor actor, String subject, Object body, Class<T> replyType) {
    return nats.request(subject, body, replyType, actor);
  }

  public <T> Uni<T> as(Actor actor, String subject, Object body, Class<T> replyType, Duration deadline) {
    return nats.request(subject, body, replyType, actor, deadline);
  }

  /** The actor the token suggests; only a guess, confirmed (or corrected) by the fresh account read. */
  private Actor expectedActor() {
    String subject = token.getSubject();
    if (subject == null || subject.isBlank()) {
      return new Actor("unknown", Actor.Role.USER); // the account read refuses such a token anyway
    }
    boolean admin = token.getGroups() != null && token.getGroups().contains(Actor.Role.ADMIN.wire());
    return new Actor(subject, admin ? Actor.Role.ADMIN : Actor.Role.USER);
  }

  private boolean safeMethod() {
    try {
      var context = http.getCurrent();
      if (context == null) {
        return false;
      }
      String method = context.request().method().name();
      return "GET".equals(method) || "HEAD".equals(method);
    } catch (RuntimeException e) {
      return false; // no HTTP request in scope: the strict order
    }
  }

  private record Outcome<T>(T item, Throwable failure) {}
}
