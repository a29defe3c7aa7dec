package dev.workcell.gateway.auth.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.account.GetAccount;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.messaging.NatsRequester;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Resolves the caller of a request to their account, read fresh from task-service every time, so a
 * disabled or demoted account is refused at once even while its token is still valid.
 */
@ApplicationScoped
public class CurrentAccount {

  private final NatsRequester nats;

  public CurrentAccount(NatsRequester nats) {
    this.nats = nats;
  }

  /** The actor to send on NATS for this caller: the account's id and its current role. */
  public Uni<Actor> actor(JsonWebToken token) {
    return resolve(token).map(account -> new Actor(account.id(), account.role()));
  }

  public Uni<Account> resolve(JsonWebToken token) {
    return resolve(token == null ? null : token.getSubject());
  }

  /** The actor for the account a token names (its subject), read fresh. */
  public Uni<Actor> actor(String accountId) {
    return resolve(accountId).map(account -> new Actor(account.id(), account.role()));
  }

  private Uni<Account> resolve(String accountId) {
    if (accountId == null || accountId.isBlank()) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.UNAUTHENTICATED, "a bearer token is required"));
    }
    // The token names the account; the account's own row decides its role and status.
    Actor lookup = new Actor(accountId, Actor.Role.USER);
    return nats.request(Subjects.ACCOUNT_GET, new GetAccount(accountId), lookup)
        .onFailure(e -> e instanceof WorkcellException w && w.code() == ErrorCode.NOT_FOUND)
        .transform(e -> new WorkcellException(ErrorCode.UNAUTHENTICATED, "the token's account does not exist"))
        .invoke(account -> {
          if (!account.active()) {
            throw new WorkcellException(ErrorCode.ACCOUNT_DISABLED, "the account is disabled");
          }
        });
  }
}
