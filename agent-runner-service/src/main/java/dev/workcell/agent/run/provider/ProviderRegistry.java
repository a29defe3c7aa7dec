package dev.workcell.agent.run.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.agent.run.config.AgentSettings;
import dev.workcell.agent.run.config.ProviderSettings;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.ProviderKind;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The providers configured at start. A route resolves only to a provider of its own kind and id:
 * a model name never picks a provider, and a missing provider is {@code provider_not_found} — never
 * a fallback to another one.
 */
@ApplicationScoped
public class ProviderRegistry {

  private final List<ModelProvider> providers;

  public ProviderRegistry(ProviderSettings settings, AgentSettings agent, ObjectMapper mapper) {
    ProviderHttp http = new ProviderHttp(mapper, agent.providerConnectTimeout());
    List<ModelProvider> configured = new ArrayList<>();
    settings.ollamaUrl().ifPresent(url -> configured.add(new OllamaChatProvider(
        settings.ollamaId().orElse(ProviderKind.OLLAMA.wire()), url, settings.ollamaApiKey(), http)));
    settings.openaiBaseUrl().ifPresent(url -> configured.add(new OpenAiChatProvider(
        settings.openaiId().orElse(ProviderKind.OPENAI.wire()), url, settings.openaiApiKey(), http)));
    settings.anthropicBaseUrl().ifPresent(url -> configured.add(new AnthropicMessagesProvider(
        settings.anthropicId().orElse(ProviderKind.ANTHROPIC.wire()), url, settings.anthropicApiKey(), agent.maxOutputTokens(), http)));
    settings.geminiBaseUrl().ifPresent(url -> configured.add(new GeminiProvider(
        settings.geminiId().orElse(ProviderKind.GEMINI.wire()), url, settings.geminiApiKey(), http)));
    this.providers = List.copyOf(configured);
    // Ids and kinds only: URLs may embed credentials and keys are never logged.
    Log.infof("model providers: %s", providers.stream().map(ModelProvider::id).toList());
  }

  /** The configured provider ids. */
  public List<String> ids() {
    return providers.stream().map(ModelProvider::id).toList();
  }

  /** The provider of exactly this route, or {@code provider_not_found}. */
  public ModelProvider resolve(ProviderRoute route) {
    return find(route).orElseThrow(() -> new WorkcellException(ErrorCode.PROVIDER_NOT_FOUND,
        "no " + route.kind().wire() + " provider with id " + route.effectiveProviderId() + " is configured"));
  }

  public Optional<ModelProvider> find(ProviderRoute route) {
    String id = route.effectiveProviderId();
    return providers.stream().filter(p -> p.serves(route.kind()) && p.id().equals(id)).findFirst();
  }
}
