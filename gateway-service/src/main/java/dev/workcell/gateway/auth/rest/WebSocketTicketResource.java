package dev.workcell.gateway.auth.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TicketApi.IssueTicket;
import dev.workcell.contracts.task.TicketApi.TicketIssued;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/** Browsers cannot put a bearer token on a WebSocket; they trade it for a one-time, 30-second ticket. */
@Path("/api/auth/websocket-ticket")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "auth")
public class WebSocketTicketResource {

  private static final Set<String> AUDIENCES = Set.of("terminal", "screen");

  private final CallerRequests caller;

  public WebSocketTicketResource(CallerRequests caller) {
    this.caller = caller;
  }

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "issueWebSocketTicket", summary = "A one-time ticket for a task's terminal or screen WebSocket")
  @APIResponse(responseCode = "201", description = "The ticket; it is used once, within its lifetime",
      content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = TicketIssued.class)))
  public Uni<RestResponse<TicketIssued>> issue(TicketRequest body) {
    TicketRequest request = Inputs.body(body);
    if (request.audience() == null || !AUDIENCES.contains(request.audience())) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "audience must be terminal or screen");
    }
    if (request.taskId() == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "taskId is required");
    }
    return caller.ask(TaskSubjects.TICKET_ISSUE, new IssueTicket(Inputs.id(request.taskId()), request.audience()))
        .map(ticket -> RestResponse.status(RestResponse.Status.CREATED, ticket));
  }
}
