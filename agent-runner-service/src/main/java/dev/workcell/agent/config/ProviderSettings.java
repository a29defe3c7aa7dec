package dev.workcell.agent.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * The model providers this runner reads from its environment at start (read-only; admins configure
 * more through task-service). A provider is configured when its URL is set; its id is its kind unless
 * named. Keys are never logged and only sent to their provider.
 */
@ConfigMapping(prefix = "workcell.agent.providers")
public interface ProviderSettings {

  /** Ollama base URL, e.g. http://127.0.0.1:11434 (WORK_OLLAMA_URL). Serves the ollama and ollama_cloud routes. */
  Optional<String> ollamaUrl();

  /** Bearer key for an Ollama that needs one (ollama.com). */
  Optional<String> ollamaApiKey();

  /** Provider id of the Ollama routes (default: the kind). */
  Optional<String> ollamaId();

  /** OpenAI-compatible base URL ending before /chat/completions, e.g. https://api.openai.com/v1 (WORK_OPENAI_BASE_URL). */
  Optional<String> openaiBaseUrl();

  Optional<String> openaiApiKey();

  Optional<String> openaiId();

  /** Anthropic base URL ending before /v1/messages, e.g. https://api.anthropic.com (WORK_ANTHROPIC_BASE_URL). */
  Optional<String> anthropicBaseUrl();

  Optional<String> anthropicApiKey();

  Optional<String> anthropicId();

  /** Gemini base URL ending before /v1beta, e.g. https://generativelanguage.googleapis.com (WORK_GEMINI_BASE_URL). */
  Optional<String> geminiBaseUrl();

  Optional<String> geminiApiKey();

  Optional<String> geminiId();


}
