package dev.workcell.gateway.capability.rest;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.provider.ProviderApi.ListProviders;
import dev.workcell.contracts.provider.ProviderApi.ProviderCatalog;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.provider.ProviderSummary;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.ListPolicies;
import dev.workcell.contracts.task.WorkAdminApi.PolicyList;
import dev.workcell.gateway.auth.service.CallerRequests;
import dev.workcell.gateway.provider.service.EnvironmentProviders;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/work/capabilities")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "capabilities")
public class CapabilityResource {

  private static final List<String> PROVIDER_KINDS = Arrays.stream(ProviderKind.values()).map(ProviderKind::wire).toList();
  private static final Map<String, Integer> LIMITS = limits();

  private final CallerRequests caller;
  private final EnvironmentProviders environment;

  public CapabilityResource(CallerRequests caller, EnvironmentProviders environment) {
    this.caller = caller;
    this.environment = environment;
  }

  @GET
  @Operation(operationId = "getCapabilities", summary = "Provider routes, configured providers, runtime policies and limits for new tasks")
  public Uni<Capabilities> get() {
    // policies.list is the account check (task-service checks the caller in its handler); the
    // catalog is asked only after it, for the actor it succeeded for.
    return caller.checkedByTaskService(actor -> caller.as(actor, TaskSubjects.POLICIES, new ListPolicies(), PolicyList.class)
        .chain(policies -> caller.as(actor, ProviderSubjects.CATALOG, new ListProviders(), ProviderCatalog.class)
            .chain(configured -> environment.list()
                .map(fixed -> new Capabilities(PROVIDER_KINDS, providers(fixed, configured.providers()), policies.policies(), LIMITS)))));
  }

  /** Environment providers first; an admin provider with the same id is shadowed (the runner's precedence). */
  static List<ProviderSummary> providers(List<ProviderSummary> environment, List<ProviderSummary> configured) {
    Set<String> fixed = environment.stream().map(ProviderSummary::id).collect(Collectors.toSet());
    List<ProviderSummary> all = new ArrayList<>(environment);
    configured.stream().filter(p -> !fixed.contains(p.id())).forEach(all::add);
    return List.copyOf(all);
  }

  private static Map<String, Integer> limits() {
    Map<String, Integer> limits = new LinkedHashMap<>();
    limits.put("messageMaxChars", Limits.MESSAGE_MAX_CHARS);
    limits.put("modelIdMaxChars", Limits.MODEL_ID_MAX_CHARS);
    limits.put("providerIdMaxChars", Limits.PROVIDER_ID_MAX_CHARS);
    limits.put("activeRunsPerTask", Limits.ACTIVE_RUNS_PER_TASK);
    limits.put("fileMaxBytes", Limits.FILE_MAX_BYTES);
    limits.put("listMaxEntries", Limits.LIST_MAX_ENTRIES);
    limits.put("messagePageMaxMessages", Limits.MESSAGE_PAGE_MAX_MESSAGES);
    limits.put("messagePageMaxBytes", Limits.MESSAGE_PAGE_MAX_BYTES);
    limits.put("commandMaxChars", Limits.COMMAND_MAX_CHARS);
    limits.put("previewReadySeconds", Limits.PREVIEW_READY_SECONDS);
    limits.put("maxAgentRounds", Limits.DEFAULT_MAX_AGENT_ROUNDS);
    return Map.copyOf(limits);
  }
}
