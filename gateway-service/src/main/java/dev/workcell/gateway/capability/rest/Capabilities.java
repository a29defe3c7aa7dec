package dev.workcell.gateway.capability.rest;

import dev.workcell.contracts.provider.ProviderSummary;
import dev.workcell.contracts.task.PolicyView;
import java.util.List;
import java.util.Map;

/**
 * What the caller can choose when creating a task: provider route kinds, the configured providers
 * (ids, kinds, models with remote flags; no URLs, no keys), runtime policies, and the fixed limits.
 */
public record Capabilities(List<String> providerKinds, List<ProviderSummary> providers, List<PolicyView> policies,
    Map<String, Integer> limits) {}
