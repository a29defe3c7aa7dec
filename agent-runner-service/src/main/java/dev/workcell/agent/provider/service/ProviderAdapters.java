package dev.workcell.agent.provider.service;

import dev.workcell.agent.provider.ModelProvider;
import dev.workcell.agent.provider.client.AnthropicMessagesProvider;
import dev.workcell.agent.provider.client.GeminiProvider;
import dev.workcell.agent.provider.client.OllamaChatProvider;
import dev.workcell.agent.provider.client.OpenAiChatProvider;
import dev.workcell.agent.provider.client.ProviderHttp;
import dev.workcell.contracts.task.ProviderKind;
import java.util.Optional;

/** Builds the adapter of a provider kind; the same for environment and admin-configured providers. */
final class ProviderAdapters {

  private ProviderAdapters() {}

  static ModelProvider create(ProviderKind kind, String id, String baseUrl, Optional<String> apiKey, int maxOutputTokens,
      ProviderHttp http) {
    return switch (kind) {
      case OLLAMA, OLLAMA_CLOUD -> new OllamaChatProvider(id, baseUrl, apiKey, http);
      case OPENAI -> new OpenAiChatProvider(id, baseUrl, apiKey, http);
      case ANTHROPIC -> new AnthropicMessagesProvider(id, baseUrl, apiKey, maxOutputTokens, http);
      case GEMINI -> new GeminiProvider(id, baseUrl, apiKey, http);
    };
  }
}
