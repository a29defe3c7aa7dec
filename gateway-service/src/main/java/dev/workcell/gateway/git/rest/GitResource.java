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
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
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
 * Changing the repository (init, stage, commit, branches) has no sandbox-service subject yet: those
 * answer 501 {@code not_implemented} after the same checks.
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
  @Operation(operationId = "getGitStatus",
      summary = "Branch, HEAD, ahead/behind, the changed paths and the 20 most recent commits of the workspace repository")
  @APIResponse(responseCode = "200", description = "The repository's status",
      content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = GitStatus.class)))
  @APIResponse(responseCode = "409", description = "not_a_repository: the workspace has no Git repository",
      content = @Content(mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<GitStatus> status(@PathParam("taskId") String taskId) {
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.GIT_STATUS,
        new GitQuery(owned.ref(), null), GIT_DEADLINE));
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
        new GitQuery(owned.ref(), narrowed.isEmpty() ? null : narrowed), GIT_DEADLINE));
  }

  @POST
  @Path("/init")
  @Operation(operationId = "initGitRepository", summary = "Initialise local Git in the workspace (not implemented yet)")
  @APIResponse(responseCode = "501", description = "No sandbox-service subject yet", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<Void> init(@PathParam("taskId") String taskId) {
    return notYet(taskId, "git init");
  }

  @POST
  @Path("/stage")
  @Operation(operationId = "stageGitPaths", summary = "Stage explicit workspace paths (not implemented yet)")
  @APIResponse(responseCode = "501", description = "No sandbox-service subject yet", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<Void> stage(@PathParam("taskId") String taskId) {
    return notYet(taskId, "git stage");
  }

  @POST
  @Path("/commit")
  @Operation(operationId = "commitGit", summary = "Commit the staged changes (not implemented yet)")
  @APIResponse(responseCode = "501", description = "No sandbox-service subject yet", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<Void> commit(@PathParam("taskId") String taskId) {
    return notYet(taskId, "git commit");
  }

  @POST
  @Path("/branches")
  @Operation(operationId = "createGitBranch", summary = "Create a local branch (not implemented yet)")
  @APIResponse(responseCode = "501", description = "No sandbox-service subject yet", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<Void> branch(@PathParam("taskId") String taskId) {
    return notYet(taskId, "git branch");
  }

  @POST
  @Path("/switch")
  @Operation(operationId = "switchGitBranch", summary = "Switch to an existing clean local branch (not implemented yet)")
  @APIResponse(responseCode = "501", description = "No sandbox-service subject yet", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<Void> switchBranch(@PathParam("taskId") String taskId) {
    return notYet(taskId, "git switch");
  }

  /** The owner check first (another account's task stays 404), then an honest 501. */
  private Uni<Void> notYet(String taskId, String what) {
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> Uni.createFrom().failure(
        new WorkcellException(ErrorCode.NOT_IMPLEMENTED, what + " has no sandbox-service subject yet")));
  }
}
