package dev.workcell.gateway.auth.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.BulkMessage;
import dev.workcell.messaging.NatsRequester;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * NATS requests made for the current HTTP caller. The account is checked fresh on every request
 * and sent as the actor; ownership is decided by the service that answers, never here. No account
 * state is kept between requests here (the one reuse, of a task's ownership check, is
 * {@code OwnershipChecks}: forgotten at once on every revocation).
 *
 * <p>A subject of {@link TaskSubjects#CALLER_CHECKED} is one round trip: task-service checks the
 * account (status, Work access, stored role) in its handler before it reads or changes anything
 * (see {@link #checkedByTaskService}).
 * Any other subject gets the account checked first, so a refused account never causes a change.
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

  /** The checked actor alone (sequential); for operations that need it before their first request. */
  public Uni<Actor> actor() {
    return accounts.actor(token);
  }

  /**
   * The checked actor, refused with 403 {@code forbidden} unless an admin: before any input is read,
   * so a user learns nothing about what admins manage (the answering service checks again).
   *
   * @param what what only admins may do, for the message ("manage runtime policies")
   */
  public Uni<Actor> admin(String what) {
    return actor().invoke(actor -> {
      if (!actor.isAdmin()) {
        throw new WorkcellException(ErrorCode.FORBIDDEN, "only admins may " + what);
      }
    });
  }

  public <Q, R> Uni<R> ask(Subject<Q, R> subject, Q body) {
    return checkedIfNeeded(subject, actor -> nats.request(subject, body, actor));
  }

  public <Q, R> Uni<R> ask(Subject<Q, R> subject, Q body, Duration deadline) {
    return checkedIfNeeded(subject, actor -> nats.request(subject, body, actor, deadline));
  }

  private <T> Uni<T> checkedIfNeeded(Subject<?, ?> subject, Function<Actor, Uni<T>> request) {
    return TaskSubjects.CALLER_CHECKED.contains(subject) ? checkedByTaskService(request) : actor().chain(actor -> request.apply(actor));
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
    // Read from the token here, on the request's thread: the recovery runs where the reply arrived.
    Optional<Actor> claimed = claimed();
    if (claimed.isEmpty()) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.UNAUTHENTICATED, "a bearer token is required"));
    }
    String accountId = claimed.get().accountId();
    return request.apply(claimed.get())
        .onFailure(CallerRequests::roleChanged).recoverWithUni(() -> accounts.actor(accountId).chain(actor -> request.apply(actor)));
  }

  private static boolean roleChanged(Throwable failure) {
    return failure instanceof WorkcellException e && e.code() == ErrorCode.ROLE_CHANGED;
  }

  public <Q, R> Uni<R> as(Actor actor, Subject<Q, R> subject, Q body) {
    return nats.request(subject, body, actor);
  }

  public <Q, R> Uni<R> as(Actor actor, Subject<Q, R> subject, Q body, Duration deadline) {
    return nats.request(subject, body, actor, deadline);
  }

  public <Q, R> Uni<R> as(Actor actor, Subject<Q, R> subject, BulkMessage<Q> body, Duration deadline) {
    return nats.request(subject, body, actor, deadline);
  }

  /** The actor the token claims, unconfirmed; empty without a token subject. */
  public Optional<Actor> claimed() {
    String accountId = token.getSubject();
    return accountId == null || accountId.isBlank() ? Optional.empty() : Optional.of(claimedActor(accountId));
  }

  /** The actor the token claims; task-service confirms it, or answers role_changed. */
  private Actor claimedActor(String accountId) {
    boolean admin = token.getGroups() != null && token.getGroups().contains(Actor.Role.ADMIN.wire());
    return new Actor(accountId, admin ? Actor.Role.ADMIN : Actor.Role.USER);
  }
}
