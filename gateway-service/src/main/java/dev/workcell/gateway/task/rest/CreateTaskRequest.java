package dev.workcell.gateway.task.rest;

/**
 * A new task and its first run. {@code provider} is the route kind (ollama, ollama_cloud, openai,
 * anthropic, gemini); {@code providerId} names a configured provider of that kind when there are several.
 */
public record CreateTaskRequest(String message, String provider, String providerId, String model, String policyId,
    String title) {}
