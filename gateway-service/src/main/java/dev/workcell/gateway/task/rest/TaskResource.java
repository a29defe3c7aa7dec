package dev.workcell.gateway.task.rest;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDeleted;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskList;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskApi.UpdateTask;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.budget.service.GatewayBudget;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.run.service.RunDoor;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.time.Duration;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path("/api/work/tasks")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "tasks")
public class TaskResource {

  private static final Duration DELETE_DEADLINE = Duration.ofSeconds(60);

  private final CallerRequests caller;
  private final RunDoor door;
  private final GatewayBudget budget;
  private final JsonWebToken token;

  public TaskResource(CallerRequests caller, RunDoor door, GatewayBudget budget, JsonWebToken token) {
    this.caller = caller;
    this.door = door;
    this.budget = budget;
    this.token = token;
  }

  @GET
  @Operation(operationId = "listTasks", summary = "The caller's tasks")
  public Uni<TaskList> list() {
    return caller.ask(TaskSubjects.LIST, new ListTasks());
  }

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "createTask", summary = "Create a task and start its first run")
  @APIResponse(responseCode = "201", description = "The task, its first run and its first message; Location names the task",
      content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = TaskCreated.class)))
  public Uni<RestResponse<TaskCreated>> create(CreateTaskRequest body) {
    CreateTaskRequest request = Inputs.body(body);
    CreateTask create = new CreateTask(Inputs.title(request.title()), Inputs.message(request.message()),
        Inputs.providerKind(request.provider(), true), Inputs.providerId(request.providerId()),
        Inputs.model(request.model(), true), blankToNull(request.policyId()), Inputs.hostFolder(request.workspaceFolder()));
    return door.then(caller.ask(TaskSubjects.CREATE, create))
        .map(created -> RestResponse.ResponseBuilder.<TaskCreated>created(URI.create("/api/work/tasks/" + created.task().id()))
            .entity(created).build());
  }

  @GET
  @Path("/{taskId}")
  @Operation(operationId = "getTask", summary = "The task, its latest run and newest messages")
  public Uni<TaskDetail> get(@PathParam("taskId") String taskId, @Context RoutingContext context) {
    String user = GatewayBudget.account(token.getSubject());
    // A page of messages (up to 1,000,000 bytes) is in memory until the answer is sent: counted.
    return caller.ask(TaskSubjects.GET, new TaskRef(Inputs.id(taskId)))
        .invoke(detail -> budget.holdUntilSent(context, user, GatewayBudget.ANSWER_COPIES * pageBytes(detail.messages())));
  }

  @GET
  @Path("/{taskId}/messages")
  @Operation(operationId = "listTaskMessages", summary = "Older messages, oldest first, before a message id")
  public Uni<MessagePage> messages(@PathParam("taskId") String taskId, @QueryParam("before") String before,
      @QueryParam("limit") String limit, @Context RoutingContext context) {
    Long beforeId = before == null || before.isBlank() ? null : number("before", before, Long.MAX_VALUE);
    int size = limit == null || limit.isBlank() ? 0 : (int) number("limit", limit, Limits.MESSAGE_PAGE_MAX_MESSAGES);
    String user = GatewayBudget.account(token.getSubject());
    return caller.ask(TaskSubjects.MESSAGE_PAGE, new PageMessages(Inputs.id(taskId), beforeId, size))
        .invoke(page -> budget.holdUntilSent(context, user, GatewayBudget.ANSWER_COPIES * pageBytes(page)));
  }

  private static long pageBytes(MessagePage page) {
    return page == null ? 0 : page.bytes();
  }

  @PATCH
  @Path("/{taskId}")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "updateTask", summary = "Rename the task or change its explicit model route")
  public Uni<TaskView> update(@PathParam("taskId") String taskId, UpdateTaskRequest body) {
    UpdateTaskRequest request = Inputs.body(body);
    if (request.title() == null && request.provider() == null && request.providerId() == null && request.model() == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "nothing to change: give title, provider, providerId or model");
    }
    UpdateTask update = new UpdateTask(Inputs.id(taskId), Inputs.title(request.title()),
        Inputs.providerKind(request.provider(), false), Inputs.providerId(request.providerId()),
        Inputs.model(request.model(), false));
    return caller.ask(TaskSubjects.UPDATE, update);
  }

  @DELETE
  @Path("/{taskId}")
  @Operation(operationId = "deleteTask", summary = "Delete the task and its persistent workspace")
  public Uni<TaskDeleted> delete(@PathParam("taskId") String taskId) {
    // Deleting removes a sandbox and a volume first; that can take longer than a query.
    return caller.ask(TaskSubjects.DELETE, new TaskRef(Inputs.id(taskId)), DELETE_DEADLINE);
  }

  static long number(String name, String text, long max) {
    try {
      long value = Long.parseLong(text.trim());
      if (value < 0 || value > max) {
        throw new WorkcellException(ErrorCode.INVALID_REQUEST, name + " must be between 0 and " + max);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, name + " must be a number");
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
