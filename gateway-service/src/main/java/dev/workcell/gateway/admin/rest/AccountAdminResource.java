package dev.workcell.gateway.admin.rest;

import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.AccountDeleted;
import dev.workcell.contracts.task.WorkAdminApi.AccountList;
import dev.workcell.contracts.task.WorkAdminApi.DeleteAccount;
import dev.workcell.contracts.task.WorkAdminApi.ListAccounts;
import dev.workcell.contracts.task.WorkAdminApi.RoleChanged;
import dev.workcell.contracts.task.WorkAdminApi.SetRole;
import dev.workcell.contracts.task.WorkAdminApi.SetStatus;
import dev.workcell.contracts.task.WorkAdminApi.StatusChanged;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Accounts, admins only: list, promote or demote, disable or re-enable, delete. task-service stores
 * each change (audited) before it pauses what the account may no longer run, keeps the last admin,
 * and deletes an account only after every task of it (the record stays when that cleanup fails).
 */
@Path("/api/work/admin/accounts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
public class AccountAdminResource {

  private static final String MANAGE = "manage accounts";
  private static final Set<String> STATUSES = Set.of("active", "disabled");

  private final CallerRequests caller;

  public AccountAdminResource(CallerRequests caller) {
    this.caller = caller;
  }

  public record RoleRequest(String role) {}

  public record StatusRequest(String status) {}

  @GET
  @Operation(operationId = "listAccounts", summary = "Every account by username (at most 1,000)")
  public Uni<AccountList> list() {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ADMIN_ACCOUNTS, new ListAccounts()));
  }

  @PUT
  @Path("/{id}/role")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "setAccountRole", summary = "Promote or demote (role: admin or user); the last admin stays one")
  public Uni<RoleChanged> role(@PathParam("id") String id, RoleRequest body) {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ADMIN_ROLE_SET, new SetRole(Inputs.id(id),
        role(Inputs.body(body).role()))));
  }

  @PUT
  @Path("/{id}/status")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "setAccountStatus", summary = "Disable (runs cancelled, sandboxes stopped) or re-enable (status: active or disabled)")
  public Uni<StatusChanged> status(@PathParam("id") String id, StatusRequest body) {
    String status = Inputs.body(body).status();
    if (!STATUSES.contains(status)) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "status must be active or disabled");
    }
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ADMIN_STATUS_SET, new SetStatus(Inputs.id(id),
        status)));
  }

  @DELETE
  @Path("/{id}")
  @Operation(operationId = "deleteAccount", summary = "Delete an account after every task of it; the account stays when that fails")
  public Uni<AccountDeleted> delete(@PathParam("id") String id) {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ADMIN_ACCOUNT_DELETE, new DeleteAccount(Inputs.id(id))));
  }

  private static RoleName role(String role) {
    if (!RoleName.ADMIN.wire().equals(role) && !RoleName.USER.wire().equals(role)) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "role must be admin or user");
    }
    return RoleName.fromWire(role);
  }
}
