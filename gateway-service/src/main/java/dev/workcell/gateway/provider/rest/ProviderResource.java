package dev.workcell.gateway.provider.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.provider.ProviderApi.ListProviders;
import dev.workcell.contracts.provider.ProviderApi.ProviderDeleted;
import dev.workcell.contracts.provider.ProviderApi.ProviderList;
import dev.workcell.contracts.provider.ProviderApi.ProviderRef;
import dev.workcell.contracts.provider.ProviderApi.PutProvider;
import dev.workcell.contracts.provider.ProviderRules;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.provider.ProviderView;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.provider.service.EnvironmentProviders;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Admin-configured model providers. Admins only (403 {@code forbidden} for users, checked here and
 * again by task-service); no response carries a key, only {@code hasApiKey}.
 */
@Path("/api/work/admin/providers")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
public class ProviderResource {

  /** What only admins may do here (403 forbidden for users, before any input is read). */
  private static final String MANAGE = "manage providers";

  private final CallerRequests caller;
  private final EnvironmentProviders environment;

  public ProviderResource(CallerRequests caller, EnvironmentProviders environment) {
    this.caller = caller;
    this.environment = environment;
  }

  @GET
  @Operation(operationId = "listProviders", summary = "Admin-configured model providers (never their keys)")
  public Uni<ProviderList> list() {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, ProviderSubjects.ADMIN_LIST, new ListProviders()));
  }

  @GET
  @Path("/{id}")
  @Operation(operationId = "getProvider", summary = "One admin-configured provider (never its key)")
  public Uni<ProviderView> get(@PathParam("id") String id) {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, ProviderSubjects.ADMIN_GET, new ProviderRef(ProviderRules.id(id))));
  }

  @PUT
  @Path("/{id}")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "putProvider", summary = "Create or replace a provider; the key is stored encrypted and never returned")
  public Uni<ProviderView> put(@PathParam("id") String id, PutProviderRequest body) {
    return caller.admin(MANAGE).chain(actor -> {
      PutProviderRequest request = Inputs.body(body);
      PutProvider put = new PutProvider(ProviderRules.id(id), ProviderRules.kind(request.kind()), ProviderRules.baseUrl(request.baseUrl()),
          ProviderRules.apiKey(request.apiKey()), ProviderRules.models(request.models()));
      return environment.list()
          .invoke(fixed -> {
            if (fixed.stream().anyMatch(p -> p.id().equals(put.id()))) {
              throw new WorkcellException(ErrorCode.CONFLICT, "provider " + put.id() + " comes from the runner's environment and is read-only");
            }
          })
          .chain(() -> caller.as(actor, ProviderSubjects.ADMIN_PUT, put));
    });
  }

  @DELETE
  @Path("/{id}")
  @Operation(operationId = "deleteProvider", summary = "Delete a provider; runs routed to it fail provider_not_found at their next round")
  public Uni<ProviderDeleted> delete(@PathParam("id") String id) {
    return caller.admin(MANAGE).chain(actor -> caller.as(actor, ProviderSubjects.ADMIN_DELETE, new ProviderRef(ProviderRules.id(id))));
  }
}
