package dev.workcell.gateway.git.rest;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.sandbox.GitChange.CommitStaged;
import dev.workcell.contracts.sandbox.GitChange.CreateBranch;
import dev.workcell.contracts.sandbox.GitChange.InitRepository;
import dev.workcell.contracts.sandbox.GitChange.StagePaths;
import dev.workcell.contracts.sandbox.GitChange.SwitchBranch;
import dev.workcell.contracts.sandbox.GitDiff;
import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.auth.service.CurrentAccount;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.problem.Problem;
import dev.workcell.gateway.task.service.TaskSandboxes;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Local Git of the workspace, read by sandbox-service after the owner check. A workspace without a
 * repository is 409 {@code not_a_repository}; a task of another account is 404 before anything else.
 * The writes (init, stage, commit, branches, switch) answer the status afterwards; sandbox-service
 * refuses them with 409 {@code sandbox_in_use} while a run or a preview holds the sandbox, and runs
 * every git call hardened (no hooks, fsmonitor, drivers, network, system or global config).
 */
@Path("/api/work/tasks/{taskId}/git")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "git")
public class GitResource {

  // git runs inside the sandbox, which may have to start first.
  private static final Duration GIT_DEADLINE = Duration.ofSeconds(60);

  private static final String WRITE_409 = "not_a_repository; sandbox_in_use: a run or a preview holds the sandbox; "
      + "unsafe_repository: .git is a link or a file, or (stage, switch) the repository defines a filter driver";

  private final CallerRequests caller;
  private final TaskSandboxes sandboxes;
  private final CurrentAccount accounts;
  private final JsonWebToken token;

  public GitResource(CallerRequests caller, TaskSandboxes sandboxes, CurrentAccount accounts, JsonWebToken token) {
    this.caller = caller;
    this.sandboxes = sandboxes;
    this.accounts = accounts;
    this.token = token;
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
  @Operation(operationId = "initGitRepository", summary = "Initialise local Git (branch main) in the workspace root")
  @APIResponse(responseCode = "200", description = "The new repository's status", content = @Content(
      mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = GitStatus.class)))
  @APIResponse(responseCode = "409", description = WRITE_409 + "; already_exists: the workspace has a .git", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<GitStatus> init(@PathParam("taskId") String taskId) {
    return write(taskId, SandboxSubjects.GIT_INIT, InitRepository::new);
  }

  @POST
  @Path("/stage")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "stageGitPaths",
      summary = "Stage explicit workspace paths (at most 200): new and changed files added, deleted tracked ones removed")
  @APIResponse(responseCode = "200", description = "The status after staging", content = @Content(
      mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = GitStatus.class)))
  @APIResponse(responseCode = "400", description = "invalid_path, invalid_argument (no paths, or git refused one)", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  @APIResponse(responseCode = "404", description = "not_found: a path is neither a file nor tracked", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  @APIResponse(responseCode = "409", description = WRITE_409, content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  @APIResponse(responseCode = "413", description = "too_many_paths: more than 200 paths", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<GitStatus> stage(@PathParam("taskId") String taskId, GitStageRequest body) {
    List<String> paths = Inputs.body(body).paths();
    if (paths == null || paths.isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "paths names at least one workspace path");
    }
    if (paths.size() > Limits.GIT_STAGE_MAX_PATHS) {
      throw new WorkcellException(ErrorCode.TOO_MANY_PATHS, paths.size() + " paths; at most " + Limits.GIT_STAGE_MAX_PATHS + " a request");
    }
    List<String> checked = paths.stream().map(path -> Inputs.workspacePath(path, true)).toList();
    return write(taskId, SandboxSubjects.GIT_STAGE, ref -> new StagePaths(ref, checked));
  }

  @POST
  @Path("/commit")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "commitGit", summary = "Commit the staged changes as the calling account (message at most 4,000 characters)")
  @APIResponse(responseCode = "200", description = "The status after the commit", content = @Content(
      mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = GitStatus.class)))
  @APIResponse(responseCode = "400", description = "invalid_argument: no message, or control characters in it", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  @APIResponse(responseCode = "409", description = WRITE_409 + "; nothing_to_commit", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  @APIResponse(responseCode = "413", description = "commit_message_too_long: more than 4,000 characters", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<GitStatus> commit(@PathParam("taskId") String taskId, GitCommitRequest body) {
    String message = Inputs.body(body).message();
    if (message == null || message.isBlank()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "message is required");
    }
    if (message.length() > Limits.GIT_COMMIT_MESSAGE_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.COMMIT_MESSAGE_TOO_LONG,
          message.length() + " characters; at most " + Limits.GIT_COMMIT_MESSAGE_MAX_CHARS);
    }
    // The author is the account as it is now, read after the owner check (the token is read here, on
    // the request's thread); its username doubles as the address when it is one.
    Uni<Account> author = accounts.resolve(token);
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> author.chain(account -> caller.as(owned.actor(),
        SandboxSubjects.GIT_COMMIT, new CommitStaged(owned.ref(), message, account.username(), email(account.username())),
        GIT_DEADLINE)));
  }

  @POST
  @Path("/branches")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "createGitBranch", summary = "Create a local branch at HEAD (without switching to it)")
  @APIResponse(responseCode = "200", description = "The status after creating it", content = @Content(
      mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = GitStatus.class)))
  @APIResponse(responseCode = "400", description = "invalid_argument: not a valid branch name", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  @APIResponse(responseCode = "409", description = WRITE_409 + "; already_exists; no_commits", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<GitStatus> branch(@PathParam("taskId") String taskId, GitBranchRequest body) {
    String name = Inputs.body(body).name();
    return write(taskId, SandboxSubjects.GIT_BRANCH_CREATE, ref -> new CreateBranch(ref, name));
  }

  @POST
  @Path("/switch")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "switchGitBranch", summary = "Switch to an existing local branch when no tracked file has changes")
  @APIResponse(responseCode = "200", description = "The status on the branch", content = @Content(
      mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = GitStatus.class)))
  @APIResponse(responseCode = "404", description = "not_found: no such local branch", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  @APIResponse(responseCode = "409", description = WRITE_409 + "; worktree_not_clean (with the reason)", content = @Content(
      mediaType = "application/problem+json", schema = @Schema(implementation = Problem.class)))
  public Uni<GitStatus> switchBranch(@PathParam("taskId") String taskId, GitBranchRequest body) {
    String name = Inputs.body(body).name();
    return write(taskId, SandboxSubjects.GIT_SWITCH, ref -> new SwitchBranch(ref, name));
  }

  /** The owner check (another account's task stays 404), then the write as the checked actor. */
  private <Q> Uni<GitStatus> write(String taskId, Subject<Q, GitStatus> subject, Function<SandboxRef, Q> request) {
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), subject, request.apply(owned.ref()), GIT_DEADLINE));
  }

  /** git needs an address; an account whose username is not one gets a reserved, undeliverable one. */
  static String email(String username) {
    return username.contains("@") ? username : username + "@users.workcell.invalid";
  }
}
