package dev.workcell.task.account.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.task.account.AccountEntity;
import dev.workcell.task.account.repository.AccountRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.regex.Pattern;

/** The rules of accounts: who may create them, who may read them. */
@ApplicationScoped
public class AccountService {

  private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9._@-]{1,200}");

  private final AccountRepository accounts;

  public AccountService(AccountRepository accounts) {
    this.accounts = accounts;
  }

  /** Creates the account if missing; an existing account keeps its role and status. */
  public Uni<Account> ensure(Actor actor, String username, Actor.Role role) {
    if (actor.role() != Actor.Role.SERVICE && !actor.isAdmin()) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.FORBIDDEN, "only admins create accounts"));
    }
    if (username == null || !USERNAME.matcher(username).matches()) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.INVALID_REQUEST,
          "username must be 1-200 characters of letters, digits and . _ @ -"));
    }
    if (role == null || role == Actor.Role.SERVICE) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.INVALID_REQUEST, "role must be admin or user"));
    }
    return Panache.withTransaction(() -> accounts.findByUsername(username)
            .onItem().ifNull().switchTo(() -> create(username, role)))
        // Two concurrent ensures of one name: the loser's insert hits the unique index; read the winner's row.
        .onFailure().recoverWithUni(failure -> Panache.withSession(() -> accounts.findByUsername(username))
            .onItem().ifNull().failWith(() -> failure))
        .map(AccountService::toContract);
  }

  /** An account by id; a user may read only their own. */
  public Uni<Account> get(Actor actor, String id) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException | NullPointerException e) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.NOT_FOUND, "no such account"));
    }
    if (actor.role() == Actor.Role.USER && !actor.accountId().equals(id)) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.NOT_FOUND, "no such account"));
    }
    return Panache.withSession(() -> accounts.findById(uuid))
        .onItem().ifNull().failWith(() -> new WorkcellException(ErrorCode.NOT_FOUND, "no such account"))
        .map(AccountService::toContract);
  }

  private Uni<AccountEntity> create(String username, Actor.Role role) {
    AccountEntity entity = new AccountEntity();
    entity.id = UUID.randomUUID();
    entity.username = username;
    entity.role = role.wire();
    entity.status = "active";
    entity.createdAt = OffsetDateTime.now();
    return accounts.persist(entity);
  }

  public static Account toContract(AccountEntity entity) {
    return new Account(entity.id.toString(), entity.username, Actor.Role.fromWire(entity.role), entity.status);
  }
}
