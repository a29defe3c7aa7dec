package dev.workcell.task.access.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.task.access.WorkSettingsEntity;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * Authorises every request from the envelope's actor against the database: role, status and the
 * access mode are read fresh, so a revocation applies even to callers holding an older token.
 * Must run inside a session.
 */
@ApplicationScoped
public class WorkAccess {

  private static final String QUERY = "select a.role, a.status, s.accessMode from AccountEntity a, WorkSettingsEntity s"
      + " where a.id = ?1 and s.id = " + WorkSettingsEntity.ID;

  /** Who acts, as the database knows them. */
  public record Caller(Actor actor, UUID accountId, Actor.Role role) {

    public boolean admin() {
      return role == Actor.Role.ADMIN;
    }
  }

  /**
   * An active admin, or an active user while Work is open to users; the header's role must be the
   * stored one, so everything done after this (audit entries included) names the role truthfully.
   */
  public Uni<Caller> requireWorkUser(Actor actor) {
    return requireStoredWorkUser(actor).invoke(WorkAccess::requireHeaderRole);
  }

  /**
   * Like {@link #requireWorkUser} for an actor this service made itself (the account of a ticket),
   * whose role is not a claim: the stored role applies, whatever the actor says.
   */
  public Uni<Caller> requireStoredWorkUser(Actor actor) {
    return load(actor).map(WorkAccess::requireWorkUser);
  }

  /**
   * {@link #requireWorkUser} for a query that read the account's role and status and the access mode
   * itself (a hot read that checks access in its own statement); {@code role} null means no such account.
   */
  public static Caller requireWorkUser(Actor actor, UUID accountId, String role, String status, String mode) {
    Caller caller = requireWorkUser(loaded(actor, accountId, role, status, mode));
    requireHeaderRole(caller);
    return caller;
  }

  /** The acting account's id, or the failure a Work user request gets for this actor. */
  public static UUID accountId(Actor actor) {
    if (actor.role() == Actor.Role.SERVICE) {
      throw Failures.error(ErrorCode.FORBIDDEN, "a service cannot act as a Work user");
    }
    return Ids.parse(actor.accountId())
        .orElseThrow(() -> Failures.error(ErrorCode.UNAUTHENTICATED, "the acting account is not known"));
  }

  private static Caller requireWorkUser(Loaded caller) {
    if (!caller.admin() && !WorkSettingsEntity.USERS.equals(caller.mode)) {
      throw Failures.error(ErrorCode.WORK_ACCESS_DENIED, "Work is open to admins only");
    }
    return caller.caller;
  }

  /** An active admin (the role in the database; a header claiming another role is refused). */
  public Uni<Caller> requireAdmin(Actor actor) {
    return load(actor).map(caller -> {
      if (!caller.admin()) {
        throw Failures.error(ErrorCode.FORBIDDEN, "only admins may do this");
      }
      requireHeaderRole(caller.caller);
      return caller.caller;
    });
  }

  /**
   * Checked after the access decision, which never depends on the header: a stale role only means
   * "ask again as the account is now" (the gateway does), never a different answer.
   */
  private static void requireHeaderRole(Caller caller) {
    if (caller.role() != caller.actor().role()) {
      throw Failures.error(ErrorCode.ROLE_CHANGED, "the account's role is " + caller.role().wire() + " now");
    }
  }

  /** Subjects that only suite services call (agent-runner, sandbox-service, terminal-service). */
  public static void requireService(Actor actor) {
    if (actor.role() != Actor.Role.SERVICE) {
      throw Failures.error(ErrorCode.FORBIDDEN, "only suite services may call this");
    }
  }

  /** Whether the given stored role may use Work under the given mode. */
  public static boolean hasWorkAccess(String role, String status, String mode) {
    return "active".equals(status) && (Actor.Role.fromWire(role) == Actor.Role.ADMIN || WorkSettingsEntity.USERS.equals(mode));
  }

  private Uni<Loaded> load(Actor actor) {
    UUID id;
    try {
      id = accountId(actor);
    } catch (RuntimeException e) {
      return Uni.createFrom().failure(e);
    }
    return Panache.getSession()
        .chain(session -> session.createSelectionQuery(QUERY, Object[].class).setParameter(1, id).getSingleResultOrNull())
        .map(row -> row == null ? loaded(actor, id, null, null, null)
            : loaded(actor, id, (String) row[0], (String) row[1], (String) row[2]));
  }

  private static Loaded loaded(Actor actor, UUID id, String role, String status, String mode) {
    if (role == null) {
      throw Failures.error(ErrorCode.UNAUTHENTICATED, "the acting account is not known");
    }
    if (!"active".equals(status)) {
      throw Failures.error(ErrorCode.ACCOUNT_DISABLED, "the account is disabled");
    }
    return new Loaded(new Caller(actor, id, Actor.Role.fromWire(role)), mode);
  }

  private record Loaded(Caller caller, String mode) {

    boolean admin() {
      return caller.admin();
    }
  }
}
