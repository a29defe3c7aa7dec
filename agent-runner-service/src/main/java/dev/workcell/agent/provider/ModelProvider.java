package dev.workcell.agent.provider;

import dev.workcell.contracts.task.ProviderKind;

/**
 * One configured model provider. Adapters translate the neutral round into their wire format and
 * stream the answer back; they block the calling (virtual) thread while the stream lasts.
 */
public interface ModelProvider {

  /** The provider id runs name in their route. */
  String id();

  /** The route kinds this provider serves (Ollama serves both local and cloud models). */
  boolean serves(ProviderKind kind);

  /**
   * Checks before the first round that the model can drive a run (Ollama: it advertises tools).
   * Fails with a {@link dev.workcell.contracts.error.WorkcellException}; does nothing by default.
   */
  default void checkModel(String model) {}

  /** Streams one round; deltas go to {@code listener} as they arrive. */
  RoundResult stream(RoundRequest request, RoundListener listener);
}
