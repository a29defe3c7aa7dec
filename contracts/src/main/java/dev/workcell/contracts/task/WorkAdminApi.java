package dev.workcell.contracts.task;

import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.account.Account;
import java.util.List;

/** Work access mode, roles, runtime policies and the audit log. Changing them takes an admin. */
public final class WorkAdminApi {

  private WorkAdminApi() {}

  /** {@code mode}: admins (the default) or users (every active account). */
  public record GetAccess() {}

  public record AccessMode(String mode) {}

  public record SetAccess(String mode) {}

  /**
   * The revocation is stored before runtime clean-up; {@code pausedTasks} had their runs cancelled
   * and their sandboxes stopped. A failed stop answers an error after the mode is already stored.
   */
  public record AccessChanged(String mode, int pausedTasks, int cancelledRuns) {}

  /** {@code role}: admin or user. */
  public record SetRole(String accountId, RoleName role) {}

  public record RoleChanged(Account account, int pausedTasks, int cancelledRuns) {}

  /** {@code status}: active or disabled. A disabled account is refused on its next request. */
  public record SetStatus(String accountId, String status) {}

  public record StatusChanged(Account account, int pausedTasks, int cancelledRuns) {}

  /** Every account, by username (the admin's view to manage them). */
  public record ListAccounts() {}

  public record AccountList(List<Account> accounts) {}

  /** Deletes an account after deleting every task of it (sandbox first); the account stays if that fails. */
  public record DeleteAccount(String accountId) {}

  public record AccountDeleted(String accountId, int deletedTasks) {}

  public record ListPolicies() {}

  public record PolicyList(List<PolicyView> policies) {}

  /**
   * Creates ({@code id} null) or replaces a policy; null resource fields inherit the globals. A null
   * {@code egressAllowlist} is the open internet ({@link EgressAllowlist}).
   */
  public record SavePolicy(
      String id,
      String name,
      String image,
      String memoryLimit,
      String cpuLimit,
      Integer pidsLimit,
      String workspaceSize,
      Long idleTimeoutMs,
      boolean networkEnabled,
      boolean computerEnabled,
      boolean takeoverAllowed,
      boolean requireApproval,
      List<String> egressAllowlist) {}

  /** Tasks of a deleted policy fall back to the globals (network on) at their next sandbox recreate. */
  public record PolicyRef(String policyId) {}

  public record PolicyDeleted(String policyId, int tasksReset) {}

  /** Newest first; {@code taskId} may be null (all entries). {@code limit} 0 means 100, at most 500. */
  public record ListAudit(String taskId, Long beforeId, int limit) {}

  public record AuditPage(List<AuditEntryView> entries, Long nextBeforeId) {}
}
