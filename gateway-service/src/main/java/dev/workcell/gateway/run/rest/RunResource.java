package dev.workcell.gateway.run.rest;

import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.TaskApi.RunCancelled;
import dev.workcell.contracts.task.TaskApi.RunStarted;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.run.service.RunDoor;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path("/api/work/tasks/{taskId}")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "runs")
public class RunResource {

  private final CallerRequests caller;
  private final RunDoor door;

  public RunResource(CallerRequests caller, RunDoor door) {
    this.caller = caller;
    this.door = door;
  }

  @POST
  @Path("/runs")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "startRun", summary = "Start a follow-up run on the same conversation and workspace")
  @APIResponse(responseCode = "201", description = "The new run and its opening message",
      content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RunStarted.class)))
  public Uni<RestResponse<RunStarted>> start(@PathParam("taskId") String taskId, RunMessageRequest body) {
    StartRun start = new StartRun(Inputs.id(taskId), Inputs.message(Inputs.body(body).message()));
    return door.then(caller.ask(TaskSubjects.RUN_START, start))
        .map(started -> RestResponse.status(RestResponse.Status.CREATED, started));
  }

  @POST
  @Path("/messages")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "postRunMessage", summary = "Send a message to the active run; it reaches the model at its next round")
  @APIResponse(responseCode = "202", description = "Accepted: the message, delivered to the model at the run's next round",
      content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MessageView.class)))
  public Uni<RestResponse<MessageView>> message(@PathParam("taskId") String taskId, RunMessageRequest body) {
    PostMessage post = new PostMessage(Inputs.id(taskId), Inputs.message(Inputs.body(body).message()));
    return caller.ask(TaskSubjects.MESSAGE_POST, post)
        .map(message -> RestResponse.status(RestResponse.Status.ACCEPTED, message));
  }

  @POST
  @Path("/cancel")
  @Operation(operationId = "cancelRun", summary = "Cancel the active run; the workspace and conversation stay")
  public Uni<RunCancelled> cancel(@PathParam("taskId") String taskId) {
    return caller.ask(TaskSubjects.RUN_CANCEL, new TaskRef(Inputs.id(taskId)));
  }
}
