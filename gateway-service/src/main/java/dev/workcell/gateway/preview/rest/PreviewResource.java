package dev.workcell.gateway.preview.rest;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.preview.PreviewSubjects;
import dev.workcell.contracts.preview.PreviewSubjects.IssueLink;
import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.StartPreview;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.task.service.TaskSandboxes;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Duration;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/work/tasks/{taskId}/preview")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "preview")
public class PreviewResource {

  // Sandbox start plus the 15 s readiness wait of the preview itself.
  private static final Duration PREVIEW_DEADLINE = Duration.ofSeconds(90);

  private final CallerRequests caller;
  private final TaskSandboxes sandboxes;

  public PreviewResource(CallerRequests caller, TaskSandboxes sandboxes) {
    this.caller = caller;
    this.sandboxes = sandboxes;
  }

  @POST
  @Path("/start")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "startPreview", summary = "Start the task's managed web preview")
  public Uni<StartedPreview> start(@PathParam("taskId") String taskId, StartPreviewRequest body, @Context UriInfo uri) {
    String command = body == null || body.command() == null || body.command().isBlank() ? null : body.command();
    if (command != null && command.length() > Limits.COMMAND_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "command exceeds 20,000 characters");
    }
    // preview-proxy signs the URL (it alone holds the key) for the generation task-service recorded.
    URI base = uri.getBaseUri();
    String origin = base.getScheme() + "://" + base.getRawAuthority();
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.PREVIEW_START,
        new StartPreview(owned.ref(), command), PREVIEW_DEADLINE)
        .chain(state -> state.running()
            ? caller.as(owned.actor(), PreviewSubjects.LINK_ISSUE, new IssueLink(state.taskId(), owned.ref().ownerId(), origin))
                .map(link -> new StartedPreview(state.taskId(), true, state.command(), state.containerPort(), link.generation(),
                    link.url(), link.path(), link.expiresAt()))
            : caller.as(owned.actor(), TaskSubjects.PREVIEW_GET, new TaskRef(state.taskId()))
                .map(view -> new StartedPreview(state.taskId(), false, state.command(), state.containerPort(), view.generation(),
                    null, null, null))));
  }

  @POST
  @Path("/stop")
  @Operation(operationId = "stopPreview", summary = "Stop the task's managed web preview")
  public Uni<PreviewState> stop(@PathParam("taskId") String taskId) {
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.PREVIEW_STOP,
        owned.ref(), PREVIEW_DEADLINE));
  }
}
