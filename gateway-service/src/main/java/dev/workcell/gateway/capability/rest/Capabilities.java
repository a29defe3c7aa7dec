package dev.workcell.gateway.capability.rest;

import dev.workcell.contracts.task.PolicyView;
import java.util.List;
import java.util.Map;

/**
 * What the caller can choose when creating a task: provider route kinds, runtime policies, and the
 * fixed limits of the protocol. Live runtime and provider availability is not reported yet.
 */
public record Capabilities(List<String> providerKinds, List<PolicyView> policies, Map<String, Integer> limits) {}
