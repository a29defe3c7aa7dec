package dev.workcell.gateway.admin.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.AuditPage;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The audit log, admins only: newest first, one task's or all, in pages ({@code before} = the last page's nextBeforeId). */
@Path("/api/work/admin/audit")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
public class AuditResource {

  private static final int MAX_LIMIT = 500;

  private final CallerRequests caller;

  public AuditResource(CallerRequests caller) {
    this.caller = caller;
  }

  @GET
  @Operation(operationId = "listAudit", summary = "Audit entries, newest first (limit 1-500, default 100)")
  public Uni<AuditPage> list(@QueryParam("taskId") String taskId, @QueryParam("before") String before,
      @QueryParam("limit") String limit) {
    Long pageSize = number(limit, "limit", MAX_LIMIT);
    ListAudit query = new ListAudit(taskId == null ? null : Inputs.id(taskId), number(before, "before", Long.MAX_VALUE),
        pageSize == null ? 0 : pageSize.intValue());
    return caller.admin("read the audit log").chain(actor -> caller.as(actor, TaskSubjects.ADMIN_AUDIT, query));
  }

  /** An optional positive number no larger than {@code max}; null when absent. */
  private static Long number(String value, String name, long max) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      long n = Long.parseLong(value.strip());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new WorkcellException(ErrorCode.INVALID_REQUEST, name + " must be a whole number from 1 to " + max);
  }
}
