package dev.workcell.contracts.provider;

import dev.workcell.contracts.task.ProviderKind;
import java.util.List;

/**
 * A provider as every Work user may see it: no base URL, no key. {@code source} is {@code admin} or
 * {@code environment}; {@code remote} marks a provider whose data leaves the deployment (every
 * non-Ollama kind); each model carries its own remote flag (Ollama {@code :cloud}/{@code -cloud} names).
 */
public record ProviderSummary(String id, ProviderKind kind, String source, boolean remote, List<ModelSummary> models) {

  public record ModelSummary(String id, boolean remote) {}
}
