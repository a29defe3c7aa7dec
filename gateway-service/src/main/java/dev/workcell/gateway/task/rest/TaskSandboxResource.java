package dev.workcell.gateway.task.rest;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.task.service.TaskSandboxes;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * A task's sandbox as sandbox-service sees it: its state and its workspace disk (size and use, decision
 * 0010). Reading it never starts the sandbox; a stopped one reports the last measured use.
 */
@Path("/api/work/tasks/{taskId}/sandbox")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "tasks")
public class TaskSandboxResource {

  // One inspect and, for a running sandbox, one short exec to measure its disk.
  private static final Duration STATUS_DEADLINE = Duration.ofSeconds(20);

  private final CallerRequests caller;
  private final TaskSandboxes sandboxes;

  public TaskSandboxResource(CallerRequests caller, TaskSandboxes sandboxes) {
    this.caller = caller;
    this.sandboxes = sandboxes;
  }

  @GET
  @Operation(operationId = "getTaskSandbox",
      summary = "The task's sandbox: state (absent, created, running, stopped) and workspace disk (bounded, sizeBytes, usedBytes)")
  public Uni<SandboxState> status(@PathParam("taskId") String taskId) {
    return sandboxes.ofCaller(Inputs.id(taskId)).chain(owned -> caller.as(owned.actor(), SandboxSubjects.STATUS, owned.ref(), STATUS_DEADLINE));
  }
}
