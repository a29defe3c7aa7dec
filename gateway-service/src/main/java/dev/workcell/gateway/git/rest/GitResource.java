package dev.workcell.gateway.git.rest;

import dev.workcell.contracts.sandbox.GitDiff;
import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.contracts.sandbox.SandboxSubjects;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Local Git of the workspace, read by sandbox-service after the owner check. A workspace without a
 * repository is 409 {@code not_a_repository}; a task of another account is 404 before anything else.
 */
@Path("/api/work/tasks/{taskId}/git")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "git")
public class GitResource {

  // git runs inside the sandbox, which may have to start first.
  private static final Duration GIT_DEADLINE = Duration.ofSeconds(60);

  private final CallerRequests caller;
  private final TaskSandboxes sandboxes;

  public GitResource(CallerRequests caller, TaskSandboxes sandboxes) {
    this.caller = caller;
    this.sandboxes = sandboxes;
  }

  @GET
  @Operation(operationId = "getGitStatus", summary = "Branch, HEAD, ahead/behind and the changed paths of the workspace repository")
  @APIResponse(responseCode = "200", description = "The repository's status",
      content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = GitStatus.class)))
  @APIResponse(responseCode = "409", description = "not_a_repository: the workspace has no Git repository",
      content = @Content(mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<GitStatus> status(@PathParam("taskId") String taskId) {
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.GIT_STATUS,
        new GitQuery(owned.ref(), null), GitStatus.class, GIT_DEADLINE));
  }

  @GET
  @Path("/diff")
  @Operation(operationId = "getGitDiff",
      summary = "A bounded unified diff of the worktree against HEAD (untracked files as additions); path narrows it")
  @APIResponse(responseCode = "200", description = "The diff; truncated when it was cut at the output limit",
      content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = GitDiff.class)))
  @APIResponse(responseCode = "409", description = "not_a_repository: the workspace has no Git repository",
      content = @Content(mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<GitDiff> diff(@PathParam("taskId") String taskId, @QueryParam("path") String path) {
    String narrowed = Inputs.workspacePath(path, false);
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.GIT_DIFF,
        new GitQuery(owned.ref(), narrowed.isEmpty() ? null : narrowed), GitDiff.class, GIT_DEADLINE));
  }
}
