package dev.workcell.gateway.approval.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.ApprovalApi.ApprovalsState;
import dev.workcell.contracts.task.ApprovalApi.DecideApproval;
import dev.workcell.contracts.task.ApprovalApi.DeleteApprovalRule;
import dev.workcell.contracts.task.ApprovalApi.SetApprovals;
import dev.workcell.contracts.task.ApprovalDecision;
import dev.workcell.contracts.task.ApprovalView;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/work/tasks/{taskId}")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "approvals")
public class ApprovalResource {

  private final CallerRequests caller;

  public ApprovalResource(CallerRequests caller) {
    this.caller = caller;
  }

  @GET
  @Path("/approvals")
  @Operation(operationId = "getApprovals", summary = "Pending approvals, rules and the task's Auto Review state")
  public Uni<ApprovalsState> get(@PathParam("taskId") String taskId) {
    return caller.ask(TaskSubjects.APPROVALS, new TaskRef(Inputs.id(taskId)));
  }

  @PUT
  @Path("/approvals")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "setApprovals", summary = "Turn approvals for the task on or off")
  public Uni<ApprovalsState> set(@PathParam("taskId") String taskId, SetApprovalsRequest body) {
    Boolean enabled = Inputs.body(body).enabled();
    if (enabled == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "enabled is required");
    }
    return caller.ask(TaskSubjects.APPROVALS_TOGGLE, new SetApprovals(Inputs.id(taskId), enabled));
  }

  @POST
  @Path("/approvals/{approvalId}")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "decideApproval", summary = "Allow once, always allow, or deny a pending approval")
  public Uni<ApprovalView> decide(@PathParam("taskId") String taskId, @PathParam("approvalId") String approvalId,
      DecisionRequest body) {
    ApprovalDecision decision = ApprovalDecision.ownerChoice(Inputs.body(body).decision()).orElseThrow(
        () -> new WorkcellException(ErrorCode.INVALID_REQUEST, "decision must be allow_once, always_allow or deny"));
    return caller.ask(TaskSubjects.APPROVAL_DECIDE, new DecideApproval(Inputs.id(taskId), Inputs.id(approvalId), decision));
  }

  @DELETE
  @Path("/approval-rules/{ruleId}")
  @Operation(operationId = "deleteApprovalRule", summary = "Remove an always-allow rule")
  public Uni<ApprovalsState> deleteRule(@PathParam("taskId") String taskId, @PathParam("ruleId") String ruleId) {
    return caller.ask(TaskSubjects.APPROVAL_RULE_DELETE, new DeleteApprovalRule(Inputs.id(taskId), Inputs.id(ruleId)));
  }
}
