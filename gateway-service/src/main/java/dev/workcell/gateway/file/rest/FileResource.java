package dev.workcell.gateway.file.rest;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.budget.service.GatewayBudget;
import dev.workcell.gateway.file.service.BulkBodyReader;
import dev.workcell.gateway.file.service.BulkBodyReader.BulkBody;
import dev.workcell.gateway.file.service.FilePart;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.task.service.TaskSandboxes;
import io.quarkus.security.Authenticated;
import dev.workcell.messaging.BulkMessage;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Workspace files. The task is read first (owner check, alongside the account check on reads), then
 * sandbox-service gets its sandbox ref.
 */
@Path("/api/work/tasks/{taskId}")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "files")
public class FileResource {

  // A stopped sandbox is started on demand before the file operation runs.
  private static final Duration SANDBOX_DEADLINE = Duration.ofSeconds(60);

  private final CallerRequests caller;
  private final TaskSandboxes sandboxes;
  private final GatewayBudget budget;
  private final BulkBodyReader bodies;

  public FileResource(CallerRequests caller, TaskSandboxes sandboxes, GatewayBudget budget, BulkBodyReader bodies) {
    this.caller = caller;
    this.sandboxes = sandboxes;
    this.budget = budget;
    this.bodies = bodies;
  }

  @GET
  @Path("/files")
  @Operation(operationId = "listWorkspaceFiles", summary = "List one workspace directory (first 1,000 entries)")
  public Uni<FileList> list(@PathParam("taskId") String taskId, @QueryParam("path") String path) {
    String dir = Inputs.workspacePath(path, false);
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.FILES_LIST,
        new ListFiles(owned.ref(), dir), SANDBOX_DEADLINE));
  }

  @GET
  @Path("/file")
  @Operation(operationId = "readWorkspaceFile", summary = "Read a UTF-8 text file of at most 2,000,000 bytes")
  public Uni<FileContent> read(@PathParam("taskId") String taskId, @QueryParam("path") String path, @Context RoutingContext context) {
    String file = Inputs.workspacePath(path, true);
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.FILES_READ,
        new ReadFile(owned.ref(), file), SANDBOX_DEADLINE)
        // The text is in memory from here until the answer is sent: counted, or refused with 429.
        .invoke(content -> budget.holdUntilSent(context, GatewayBudget.account(owned.actor().accountId()),
            GatewayBudget.ANSWER_COPIES * (content.content() == null ? 0L : content.content().length()))));
  }

  @PUT
  @Path("/file")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "saveWorkspaceFile", summary = "Save a text file; expectedVersion makes it a compare-and-swap")
  public Uni<FileWritten> save(@PathParam("taskId") String taskId,
      @RequestBody(required = true, content = @Content(schema = @Schema(implementation = SaveFileRequest.class))) byte[] body) {
    BulkBody<SaveFileRequest> read = Inputs.body(bodies.read(body, SaveFileRequest.class));
    SaveFileRequest request = read.value();
    String file = Inputs.workspacePath(request.path(), true);
    if (read.text() == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "content is required");
    }
    if (read.text().length > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, null);
    }
    boolean parents = Boolean.TRUE.equals(request.createParents());
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.FILES_WRITE,
        new BulkMessage<>(new WriteFile(owned.ref(), file, null, request.expectedVersion(), parents), read.text()),
        SANDBOX_DEADLINE));
  }

  @PUT
  @Path("/file/part")
  @Consumes(MediaType.APPLICATION_OCTET_STREAM)
  @Operation(operationId = "saveWorkspaceFilePart", summary = "Save a file of any size, text or not, in parts of at most "
      + "2,000,000 bytes sent in order under one upload id; the last part puts the whole file in place at once")
  public Uni<FileWritten> savePart(@PathParam("taskId") String taskId, @QueryParam("path") String path,
      @QueryParam("upload") String upload, @QueryParam("offset") String offset, @QueryParam("last") String last,
      @QueryParam("mode") String mode, byte[] body) {
    String file = Inputs.workspacePath(path, true);
    FilePart part = FilePart.of(upload, offset, last, mode, body);
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.FILES_WRITE_PART,
        part.to(owned.ref(), file), SANDBOX_DEADLINE));
  }
}
