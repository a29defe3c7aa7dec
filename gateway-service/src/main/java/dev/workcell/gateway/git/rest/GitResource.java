package dev.workcell.gateway.git.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.problem.Problem;
import dev.workcell.gateway.task.service.TaskSandboxes;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Local Git of the workspace. sandbox-service has no git subjects yet, so after the owner check
 * these answer 501 not_implemented; a task of another account is still 404 first.
 */
@Path("/api/work/tasks/{taskId}/git")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "git")
public class GitResource {

  private final CallerRequests caller;
  private final TaskSandboxes sandboxes;

  public GitResource(CallerRequests caller, TaskSandboxes sandboxes) {
    this.caller = caller;
    this.sandboxes = sandboxes;
  }

  @GET
  @Operation(operationId = "getGitStatus", summary = "Local Git status and history (not implemented yet)")
  @APIResponse(responseCode = "501", description = "No sandbox-service git subject yet",
      content = @Content(mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<Void> status(@PathParam("taskId") String taskId) {
    return notYet(taskId, "git status");
  }

  @GET
  @Path("/diff")
  @Operation(operationId = "getGitDiff", summary = "A bounded local diff (not implemented yet)")
  @APIResponse(responseCode = "501", description = "No sandbox-service git subject yet",
      content = @Content(mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<Void> diff(@PathParam("taskId") String taskId) {
    return notYet(taskId, "git diff");
  }

  private Uni<Void> notYet(String taskId, String what) {
    return caller.actor().chain(actor -> sandboxes.ownedTask(actor, Inputs.id(taskId)))
        .chain(task -> Uni.createFrom().failure(new WorkcellException(ErrorCode.NOT_IMPLEMENTED, what + " has no backing subject yet")));
  }
}
