package dev.workcell.gateway.policy.rest;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.EgressAllowlist;
import dev.workcell.contracts.task.PolicyView;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.ListPolicies;
import dev.workcell.contracts.task.WorkAdminApi.PolicyDeleted;
import dev.workcell.contracts.task.WorkAdminApi.PolicyList;
import dev.workcell.contracts.task.WorkAdminApi.PolicyRef;
import dev.workcell.contracts.task.WorkAdminApi.SavePolicy;
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
import java.io.IOException;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Runtime policies, admins only (403 {@code forbidden} for users before any input is read; task-service
 * checks again). Bad input is 400 {@code invalid_request}: the egress allowlist is checked here with
 * task-service's rules ({@link EgressAllowlist}) and sent on in canonical form.
 */
@Path("/api/work/admin/policies")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
public class PolicyResource {

  private static final Pattern ID = Pattern.compile("[0-9a-fA-F-]{36}");

  /** What only admins may do here (403 forbidden for users, before any input is read). */
  private static final String MANAGE = "manage runtime policies";

  private final CallerRequests caller;
  /** A policy names only its own fields: an unknown one (privileged, capAdd, …) is refused, never ignored. */
  private final ObjectReader strictPolicy;

  public PolicyResource(CallerRequests caller, ObjectMapper mapper) {
    this.caller = caller;
    this.strictPolicy = mapper.readerFor(SavePolicyRequest.class).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  @GET
  @Operation(operationId = "listPolicies", summary = "Every runtime policy")
  public Uni<PolicyList> list() {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.POLICIES, new ListPolicies()));
  }

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "createPolicy", summary = "Create a runtime policy (egressAllowlist: null = open internet)")
  public Uni<PolicyView> create(@RequestBody(content = @Content(schema = @Schema(implementation = SavePolicyRequest.class))) JsonNode body) {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ADMIN_POLICY_SAVE, save(null, body)));
  }

  @PUT
  @Path("/{id}")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "putPolicy", summary = "Replace a runtime policy; a new egressAllowlist applies to running sandboxes at once")
  public Uni<PolicyView> put(@PathParam("id") String id,
      @RequestBody(content = @Content(schema = @Schema(implementation = SavePolicyRequest.class))) JsonNode body) {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ADMIN_POLICY_SAVE, save(id(id), body)));
  }

  @DELETE
  @Path("/{id}")
  @Operation(operationId = "deletePolicy", summary = "Delete a runtime policy; its tasks fall back to the defaults")
  public Uni<PolicyDeleted> delete(@PathParam("id") String id) {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, TaskSubjects.ADMIN_POLICY_DELETE, new PolicyRef(id(id))));
  }

  private SavePolicy save(String id, JsonNode body) {
    SavePolicyRequest r = Inputs.body(strict(Inputs.body(body)));
    if (r.name() == null || r.name().isBlank() || r.name().strip().length() > 100) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "a policy needs a name of 1-100 characters");
    }
    return new SavePolicy(id, r.name(), r.image(), r.memoryLimit(), r.cpuLimit(), r.pidsLimit(), r.workspaceSize(), r.idleTimeoutMs(),
        r.networkEnabled() == null || r.networkEnabled(), Boolean.TRUE.equals(r.computerEnabled()),
        r.takeoverAllowed() == null || r.takeoverAllowed(), Boolean.TRUE.equals(r.requireApproval()),
        EgressAllowlist.validate(r.egressAllowlist()));
  }

  private SavePolicyRequest strict(JsonNode body) {
    try {
      return strictPolicy.readValue(body);
    } catch (UnrecognizedPropertyException e) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "a policy has no field " + Inputs.clip(e.getPropertyName())
          + "; it never sets a hardening field (the sandbox profile is fixed)");
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "not a policy: " + Inputs.clip(String.valueOf(e.getMessage())));
    }
  }

  private static String id(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such policy");
    }
    return id;
  }
}
