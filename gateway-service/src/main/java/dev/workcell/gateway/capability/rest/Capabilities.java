package dev.workcell.gateway.capability.rest;

import dev.workcell.contracts.provider.ProviderSummary;
import dev.workcell.contracts.run.RunBudget;
import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.contracts.task.PolicyView;
import java.util.List;
import java.util.Map;

/**
 * What the caller can choose when creating a task and what it may do now: provider route kinds, the
 * configured providers (ids, kinds, models with remote flags; no URLs, no keys), runtime policies,
 * the runtime's backend, availability, caps and current use (the caller's own and the instance's;
 * null when sandbox-service does not answer), the effective run budget (null when agent-runner does
 * not answer) and the fixed limits.
 */
public record Capabilities(List<String> providerKinds, List<ProviderSummary> providers, List<PolicyView> policies,
    RuntimeUsage runtime, RunBudget budget, Map<String, Integer> limits) {}
