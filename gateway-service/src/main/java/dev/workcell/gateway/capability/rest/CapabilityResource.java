package dev.workcell.gateway.capability.rest;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.provider.ProviderApi.ListProviders;
import dev.workcell.contracts.provider.ProviderApi.ProviderCatalog;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.provider.ProviderSummary;
import dev.workcell.contracts.run.RunBudget;
import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.contracts.sandbox.RuntimeUsageQuery;
import dev.workcell.contracts.sandbox.SandboxSubjects;
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
import java.time.Duration;
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
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(2);

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
    return caller.checkedByTaskService(actor -> caller.as(actor, TaskSubjects.POLICIES, new ListPolicies())
        .chain(policies -> Uni.combine().all().unis(
                caller.as(actor, ProviderSubjects.CATALOG, new ListProviders()),
                environment.list(),
                optional(caller.as(actor, SandboxSubjects.RUNTIME_USAGE, new RuntimeUsageQuery(actor.accountId()),
                    ANSWER_WITHIN)),
                optional(caller.as(actor, RunBudget.SUBJECT, new RunBudget.Query(), ANSWER_WITHIN)))
            .asTuple()
            .map(all -> new Capabilities(PROVIDER_KINDS, providers(all.getItem2(), all.getItem1().providers()), policies.policies(),
                all.getItem3(), all.getItem4(), limits(all.getItem4())))));
  }

  /** A part of the answer that may be missing (its service is away) without failing the rest. */
  private static <T> Uni<T> optional(Uni<T> part) {
    return part.onFailure().recoverWithNull();
  }

  /** Environment providers first; an admin provider with the same id is shadowed (the runner's precedence). */
  static List<ProviderSummary> providers(List<ProviderSummary> environment, List<ProviderSummary> configured) {
    Set<String> fixed = environment.stream().map(ProviderSummary::id).collect(Collectors.toSet());
    List<ProviderSummary> all = new ArrayList<>(environment);
    configured.stream().filter(p -> !fixed.contains(p.id())).forEach(all::add);
    return List.copyOf(all);
  }

  /** The fixed limits, with the round budget agent-runner actually uses when it answered. */
  private static Map<String, Integer> limits(RunBudget budget) {
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
    limits.put("maxAgentRounds", budget == null ? Limits.DEFAULT_MAX_AGENT_ROUNDS : budget.maxRounds());
    return Map.copyOf(limits);
  }
}
