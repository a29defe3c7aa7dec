package dev.workcell.agent.provider.service;

import dev.workcell.agent.provider.ModelProvider;
import dev.workcell.agent.provider.ProviderRoute;
import dev.workcell.agent.provider.client.ProviderHttp;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.config.ProviderSettings;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.provider.ProviderApi.ResolvedProvider;
import dev.workcell.contracts.provider.ProviderRules;
import dev.workcell.contracts.provider.ProviderSummary;
import dev.workcell.contracts.task.ProviderKind;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Resolves a route to exactly its provider, on every call. Precedence: a provider of the runner's
 * environment ({@code WORK_OLLAMA_URL}, …; fixed for the process's life) owns its id; any other id
 * is read from task-service's admin-configured providers each time. So one id always means one
 * source, and deleting or changing an admin provider can never shift a run onto another provider:
 * the next round uses the new settings or fails {@code provider_not_found}. A model name never
 * picks a provider.
 */
@ApplicationScoped
public class ProviderRegistry {

  /** An environment provider with the kind it was configured as. */
  private record Configured(ProviderKind kind, ModelProvider provider) {}

  private final List<Configured> environment;
  private final AdminProviders admin;
  private final ProviderHttp http;
  private final int maxOutputTokens;

  public ProviderRegistry(ProviderSettings settings, AgentSettings agent, ObjectMapper mapper, AdminProviders admin) {
    this.http = new ProviderHttp(mapper, agent.providerConnectTimeout(), agent.providerIdleTimeout(), agent.providerMaxLineChars());
    this.admin = admin;
    this.maxOutputTokens = agent.maxOutputTokens();
    List<Configured> configured = new ArrayList<>();
    add(configured, ProviderKind.OLLAMA, settings.ollamaId(), settings.ollamaUrl(), settings.ollamaApiKey());
    add(configured, ProviderKind.OPENAI, settings.openaiId(), settings.openaiBaseUrl(), settings.openaiApiKey());
    add(configured, ProviderKind.ANTHROPIC, settings.anthropicId(), settings.anthropicBaseUrl(), settings.anthropicApiKey());
    add(configured, ProviderKind.GEMINI, settings.geminiId(), settings.geminiBaseUrl(), settings.geminiApiKey());
    this.environment = List.copyOf(configured);
    // Ids only: URLs may embed credentials and keys are never logged.
    Log.infof("environment model providers: %s (others are read from task-service per request)", ids());
  }

  private void add(List<Configured> into, ProviderKind kind, Optional<String> id, Optional<String> url, Optional<String> key) {
    url.ifPresent(u -> into.add(new Configured(kind,
        ProviderAdapters.create(kind, id.orElse(kind.wire()), u, key, maxOutputTokens, http))));
  }

  /** The environment provider ids. */
  public List<String> ids() {
    return environment.stream().map(c -> c.provider().id()).toList();
  }

  /** The environment providers as Work users may see them: ids and kinds, no URLs or keys. */
  public List<ProviderSummary> environmentSummaries() {
    return environment.stream().map(c -> new ProviderSummary(c.provider().id(), c.kind(), "environment",
        ProviderRules.remoteKind(c.kind()), List.of())).toList();
  }

  /** The provider of exactly this route, read fresh, or a coded failure ({@code provider_not_found}, …). */
  public ModelProvider resolve(ProviderRoute route) {
    String id = route.effectiveProviderId();
    Optional<Configured> fixed = environment.stream().filter(c -> c.provider().id().equals(id)).findFirst();
    if (fixed.isPresent()) {
      if (!fixed.get().provider().serves(route.kind())) {
        throw notFound(route);
      }
      return fixed.get().provider();
    }
    ResolvedProvider configured = admin.resolve(id);
    ProviderKind kind = configured.kind();
    ModelProvider provider = ProviderAdapters.create(kind, configured.id(), configured.baseUrl(),
        Optional.ofNullable(configured.apiKey()), maxOutputTokens, http);
    if (!provider.serves(route.kind())) {
      throw notFound(route);
    }
    List<String> models = configured.models() == null ? List.of() : configured.models();
    if (!models.isEmpty() && !models.contains(route.model())) {
      throw new WorkcellException(ErrorCode.PROVIDER_NOT_FOUND, "provider " + id + " does not offer model " + clip(route.model()));
    }
    return provider;
  }

  private static WorkcellException notFound(ProviderRoute route) {
    return new WorkcellException(ErrorCode.PROVIDER_NOT_FOUND,
        "no " + route.kind().wire() + " provider with id " + route.effectiveProviderId() + " is configured");
  }

  private static String clip(String text) {
    return text.length() > 100 ? text.substring(0, 100) + "…" : text;
  }
}
