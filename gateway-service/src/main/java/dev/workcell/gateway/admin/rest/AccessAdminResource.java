package dev.workcell.gateway.admin.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.AccessChanged;
import dev.workcell.contracts.task.WorkAdminApi.AccessMode;
import dev.workcell.contracts.task.WorkAdminApi.GetAccess;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Who may use Work (seed 004): admins only (the default) or every active user. Closing it again
 * pauses users' tasks (runs cancelled, sandboxes stopped) after the mode is stored.
 */
@Path("/api/work/admin/access")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
public class AccessAdminResource {

  private static final String MANAGE = "manage Work access";
  private static final Set<String> MODES = Set.of("admins", "users");

  private final CallerRequests caller;

  public AccessAdminResource(CallerRequests caller) {
    this.caller = caller;
  }

  public record AccessRequest(String mode) {}

  @GET
  @Operation(operationId = "getWorkAccess", summary = "Who may use Work: admins or users")
  public Uni<AccessMode> get() {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ACCESS_GET, new GetAccess()));
  }

  @PUT
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "setWorkAccess", summary = "Open Work to every active user (users) or to admins only (admins)")
  public Uni<AccessChanged> set(AccessRequest body) {
    String mode = Inputs.body(body).mode();
    if (!MODES.contains(mode)) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "mode must be admins or users");
    }
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ADMIN_ACCESS_SET, new SetAccess(mode)));
  }
}
