package dev.workcell.gateway.run.rest;

import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.run.service.RunAccess;
import dev.workcell.gateway.run.service.RunEventStreams;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/work/tasks/{taskId}/runs/{runId}/events")
@Authenticated
@Tag(name = "runs")
public class RunEventResource {

  private final CallerRequests caller;
  private final RunAccess access;
  private final RunEventStreams streams;

  public RunEventResource(CallerRequests caller, RunAccess access, RunEventStreams streams) {
    this.caller = caller;
    this.access = access;
    this.streams = streams;
  }

  /**
   * A {@code snapshot} frame (id = the resume position), then the run's events with their per-run
   * sequence as SSE id, a heartbeat comment every 15 s, and the end after {@code done}.
   */
  @GET
  @Produces(MediaType.SERVER_SENT_EVENTS)
  @Operation(operationId = "streamRunEvents", summary = "Live events of a run as Server-Sent Events; resume with after or Last-Event-ID")
  public Uni<Void> events(@PathParam("taskId") String taskId, @PathParam("runId") String runId,
      @QueryParam("after") String after, @HeaderParam("Last-Event-ID") String lastEventId,
      @Context SseEventSink sink, @Context Sse sse, @Context HttpServerRequest request) {
    long position = position(after, lastEventId);
    String task = Inputs.id(taskId);
    String run = Inputs.id(runId);
    // Every check happens before the first byte, so a refusal is still an ordinary problem response;
    // the stream opens only once task-service has answered the run, which checks the account too.
    return caller.checkedByTaskService(actor -> access.snapshot(actor, task, run, position))
        .invoke(snapshot -> streams.open(sink, sse, request.connection(), snapshot))
        .replaceWithVoid();
  }

  private static long position(String after, String lastEventId) {
    String value = after != null && !after.isBlank() ? after : lastEventId;
    if (value == null || value.isBlank()) {
      return 0;
    }
    try {
      long position = Long.parseLong(value.trim());
      if (position < 0) {
        throw new NumberFormatException();
      }
      return position;
    } catch (NumberFormatException e) {
      throw new dev.workcell.contracts.error.WorkcellException(dev.workcell.contracts.error.ErrorCode.INVALID_REQUEST,
          "after and Last-Event-ID must be a non-negative event id");
    }
  }
}
