package dev.workcell.task.admin.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.WorkAdminApi.AccessChanged;
import dev.workcell.contracts.task.WorkAdminApi.AccessMode;
import dev.workcell.contracts.task.WorkAdminApi.AccountDeleted;
import dev.workcell.contracts.task.WorkAdminApi.AccountList;
import dev.workcell.contracts.task.WorkAdminApi.DeleteAccount;
import dev.workcell.contracts.task.WorkAdminApi.RoleChanged;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.contracts.task.WorkAdminApi.SetRole;
import dev.workcell.contracts.task.WorkAdminApi.SetStatus;
import dev.workcell.contracts.task.WorkAdminApi.StatusChanged;
import dev.workcell.contracts.task.TaskSubjects.AccessNarrowed;
import dev.workcell.task.access.messaging.AccessNarrowedPublisher;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.access.WorkSettingsEntity;
import dev.workcell.task.access.repository.WorkSettingsRepository;
import dev.workcell.task.account.AccountEntity;
import dev.workcell.task.account.repository.AccountRepository;
import dev.workcell.task.account.service.AccountService;
import dev.workcell.task.audit.service.AuditLog;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.conversation.repository.TaskRepository;
import dev.workcell.task.task.service.TaskDeletion;
import dev.workcell.task.task.service.TaskPausing;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Who may use Work. Every revocation is committed (and audited) before any runtime clean-up is
 * attempted, so a failing runtime can delay the clean-up but never the revocation.
 */
@ApplicationScoped
public class AccessAdministration {

  static final int ACCOUNTS_MAX = 1_000;

  private final WorkAccess access;
  private final WorkSettingsRepository settings;
  private final AccountRepository accounts;
  private final TaskRepository tasks;
  private final TaskPausing pausing;
  private final TaskDeletion deletion;
  private final AuditLog audit;
  private final AccessNarrowedPublisher narrowed;

  public AccessAdministration(WorkAccess access, WorkSettingsRepository settings, AccountRepository accounts,
      TaskRepository tasks, TaskPausing pausing, TaskDeletion deletion, AuditLog audit, AccessNarrowedPublisher narrowed) {
    this.access = access;
    this.settings = settings;
    this.accounts = accounts;
    this.tasks = tasks;
    this.pausing = pausing;
    this.deletion = deletion;
    this.audit = audit;
    this.narrowed = narrowed;
  }

  public Uni<AccessMode> mode() {
    return Panache.withSession(() -> settings.settings().map(s -> new AccessMode(s.accessMode)));
  }

  /** Every account by username; at most {@link #ACCOUNTS_MAX} (an admin's page, not an export). */
  public Uni<AccountList> accounts(Actor actor) {
    return Panache.withSession(() -> access.requireAdmin(actor)
        .chain(() -> accounts.findAll(Sort.by("username")).page(0, ACCOUNTS_MAX).list())
        .map(all -> new AccountList(all.stream().map(AccountService::toContract).toList())));
  }

  /** Opens Work to all active users or closes it to admins only (then pauses users' tasks). */
  public Uni<AccessChanged> setMode(Actor actor, SetAccess request) {
    String mode = request.mode();
    if (!WorkSettingsEntity.ADMINS.equals(mode) && !WorkSettingsEntity.USERS.equals(mode)) {
      throw Failures.invalid("mode must be admins or users");
    }
    return Panache.withTransaction(() -> access.requireAdmin(actor)
            .chain(() -> settings.settings())
            .chain(current -> {
              String previous = current.accessMode;
              current.accessMode = mode;
              current.updatedAt = OffsetDateTime.now();
              current.updatedBy = actor.accountId();
              return audit.record(actor, "access.mode", null, Map.of("from", previous, "to", mode));
            }))
        .invoke(() -> narrowed.push(AccessNarrowed.everyAccount()))
        .chain(() -> WorkSettingsEntity.ADMINS.equals(mode) ? pausing.pauseNonAdmins()
            : Uni.createFrom().item(new TaskPausing.Paused(0, 0)))
        .map(paused -> new AccessChanged(mode, paused.tasks(), paused.cancelledRuns()));
  }

  /** Promotes or demotes; a demoted account's tasks are paused when Work is closed to users. */
  public Uni<RoleChanged> setRole(Actor actor, SetRole request) {
    if (request.role() == null || request.role() == RoleName.SERVICE) {
      throw Failures.invalid("role must be admin or user");
    }
    Actor.Role role = request.role().role();
    UUID id = Ids.parse(request.accountId()).orElseThrow(AccessAdministration::noAccount);
    return Panache.withTransaction(() -> access.requireAdmin(actor)
            .chain(() -> accounts.findById(id, LockModeType.PESSIMISTIC_WRITE))
            .onItem().ifNull().failWith(AccessAdministration::noAccount)
            .call(account -> role == Actor.Role.USER && account.storedRole() == Actor.Role.ADMIN ? requireAnotherAdmin(account)
                : Uni.createFrom().voidItem())
            .call(account -> {
              String previous = account.role;
              account.role = role.wire();
              return audit.record(actor, "account.role", null, Map.of("accountId", id.toString(), "from", previous,
                  "to", role.wire()));
            })
            .chain(account -> settings.settings().map(s -> new Demotion(account,
                !WorkAccess.hasWorkAccess(account.role, account.status, s.accessMode)))))
        .invoke(() -> narrowed.push(AccessNarrowed.account(id.toString())))
        .chain(result -> (result.lostAccess ? pausing.pauseOwner(id) : Uni.createFrom().item(new TaskPausing.Paused(0, 0)))
            .map(paused -> new RoleChanged(AccountService.toContract(result.account), paused.tasks(),
                paused.cancelledRuns())));
  }

  /** Disables or re-enables an account; a disabled account's runs are cancelled and sandboxes stopped. */
  public Uni<StatusChanged> setStatus(Actor actor, SetStatus request) {
    String status = request.status();
    if (!"active".equals(status) && !"disabled".equals(status)) {
      throw Failures.invalid("status must be active or disabled");
    }
    UUID id = Ids.parse(request.accountId()).orElseThrow(AccessAdministration::noAccount);
    boolean disabling = "disabled".equals(status);
    return Panache.withTransaction(() -> access.requireAdmin(actor)
            .call(caller -> disabling && caller.accountId().equals(id)
                ? Failures.fail(ErrorCode.CONFLICT, "an admin cannot disable their own account")
                : Uni.createFrom().voidItem())
            .chain(() -> accounts.findById(id, LockModeType.PESSIMISTIC_WRITE))
            .onItem().ifNull().failWith(AccessAdministration::noAccount)
            .call(account -> disabling && account.storedRole() == Actor.Role.ADMIN ? requireAnotherAdmin(account)
                : Uni.createFrom().voidItem())
            .call(account -> {
              String previous = account.status;
              account.status = status;
              return audit.record(actor, "account.status", null, Map.of("accountId", id.toString(), "from", previous,
                  "to", status));
            }))
        .invoke(() -> narrowed.push(AccessNarrowed.account(id.toString())))
        .chain(account -> (disabling ? pausing.pauseOwner(id) : Uni.createFrom().item(new TaskPausing.Paused(0, 0)))
            .map(paused -> new StatusChanged(AccountService.toContract(account), paused.tasks(), paused.cancelledRuns())));
  }

  /**
   * Deletes every task of the account (runtime first) and then the account. If any runtime clean-up
   * fails the account stays, so its ownership metadata is still there for a retry.
   */
  public Uni<AccountDeleted> deleteAccount(Actor actor, DeleteAccount request) {
    UUID id = Ids.parse(request.accountId()).orElseThrow(AccessAdministration::noAccount);
    return Panache.withTransaction(() -> access.requireAdmin(actor)
            .call(caller -> caller.accountId().equals(id)
                ? Failures.fail(ErrorCode.CONFLICT, "an admin cannot delete their own account")
                : Uni.createFrom().voidItem())
            .chain(() -> accounts.findById(id))
            .onItem().ifNull().failWith(AccessAdministration::noAccount)
            .call(account -> account.storedRole() == Actor.Role.ADMIN ? requireAnotherAdmin(account) : Uni.createFrom().voidItem())
            .chain(account -> tasks.ownedBy(account.id))
            .chain(owned -> Multi.createFrom().iterable(owned)
                .onItem().transformToUniAndConcatenate(task -> deletion.decommission(actor, task))
                .collect().asList()))
        .call(marked -> Multi.createFrom().iterable(marked).onItem().transformToUniAndConcatenate(deletion::announce)
            .collect().last())
        .map(marked -> marked.stream().map(TaskDeletion.Decommissioned::taskId).toList())
        .chain(taskIds -> removeAll(actor, id, taskIds)
            .chain(() -> Panache.withTransaction(() -> accounts.deleteById(id)
                .call(() -> audit.record(actor, "account.delete", null, Map.of("accountId", id.toString(),
                    "deletedTasks", taskIds.size())))))
            .invoke(() -> narrowed.push(AccessNarrowed.account(id.toString())))
            .map(ignored -> new AccountDeleted(id.toString(), taskIds.size())));
  }

  /** Sequential, so the first failure stops the rest and is what the caller sees. */
  private Uni<Void> removeAll(Actor actor, UUID ownerId, List<UUID> taskIds) {
    Uni<Void> chain = Uni.createFrom().voidItem();
    for (UUID taskId : taskIds) {
      chain = chain.chain(() -> deletion.remove(actor, taskId, ownerId));
    }
    return chain;
  }

  private Uni<Void> requireAnotherAdmin(AccountEntity account) {
    return accounts.count("role = 'admin' and status = 'active' and id <> ?1", account.id)
        .chain(others -> others > 0 ? Uni.createFrom().voidItem()
            : Failures.fail(ErrorCode.CONFLICT, "the last active admin cannot be demoted or deleted"));
  }

  private static RuntimeException noAccount() {
    return Failures.error(ErrorCode.NOT_FOUND, "no such account");
  }

  private record Demotion(AccountEntity account, boolean lostAccess) {}
}
