package dev.workcell.contracts.task;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The explicit provider route of a task (stored on the task and snapshotted on every run). A model
 * name never chooses the route on its own; the runner never switches it silently.
 */
public enum ProviderKind {
  /** A local Ollama; the model must advertise {@code tools}. */
  OLLAMA,
  /** An Ollama cloud model, routed explicitly through Ollama. */
  OLLAMA_CLOUD,
  /** OpenAI-compatible chat completions. */
  OPENAI,
  /** Anthropic messages. */
  ANTHROPIC,
  /** Gemini generateContent. */
  GEMINI;

  /** The JSON value, on NATS and REST alike. */
  @JsonValue
  public String wire() {
    return name().toLowerCase();
  }

  @JsonCreator
  public static ProviderKind fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }
}
