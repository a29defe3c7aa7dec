package dev.workcell.gateway.task.rest;

import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.TaskList;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.gateway.auth.service.CallerRequests;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The explicit admin view of every account's tasks. task-service decides admin-ness from the account
 * row; the gateway sends the role it just read, so a demotion applies to the very next request.
 */
@Path("/api/work/admin/tasks")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
public class AdminTaskResource {

  private final CallerRequests caller;

  public AdminTaskResource(CallerRequests caller) {
    this.caller = caller;
  }

  @GET
  @Operation(operationId = "listAllTasks", summary = "Every account's tasks (admins only; 403 forbidden otherwise)")
  public Uni<TaskList> list() {
    return caller.ask(TaskSubjects.ADMIN_TASKS, new ListTasks());
  }
}
