package dev.workcell.agent.provider;

import dev.workcell.contracts.task.ProviderKind;

/**
 * The explicit route a run was started with. It is never changed while the run lasts; {@code remote}
 * marks a model whose data leaves this deployment (every plugin, and Ollama {@code :cloud}/{@code -cloud} names).
 */
public record ProviderRoute(ProviderKind kind, String providerId, String model) {

  public boolean remote() {
    return switch (kind) {
      case OLLAMA -> model.endsWith(":cloud") || model.endsWith("-cloud");
      case OLLAMA_CLOUD, OPENAI, ANTHROPIC, GEMINI -> true;
    };
  }

  /** The provider id a route names, or the kind's own id when the run left it empty. */
  public String effectiveProviderId() {
    return providerId == null || providerId.isBlank() ? defaultId(kind) : providerId;
  }

  public static String defaultId(ProviderKind kind) {
    return kind == ProviderKind.OLLAMA_CLOUD ? ProviderKind.OLLAMA.wire() : kind.wire();
  }
}
