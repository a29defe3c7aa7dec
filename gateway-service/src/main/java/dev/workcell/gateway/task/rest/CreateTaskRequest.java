package dev.workcell.gateway.task.rest;

/**
 * A new task and its first run. {@code provider} is the route kind (ollama, ollama_cloud, openai,
 * anthropic, gemini); {@code providerId} names a configured provider of that kind when there are several.
 * {@code workspaceFolder} (seed 004's "Workspace folder"; admins only, when the deployment enables host
 * folders): an absolute host path bound as the task's {@code /workspace} instead of a volume of its own.
 */
public record CreateTaskRequest(String message, String provider, String providerId, String model, String policyId,
    String title, String workspaceFolder) {}
