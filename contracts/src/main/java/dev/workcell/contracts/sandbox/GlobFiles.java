package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Finds entries beneath {@code path} whose path relative to it matches {@code pattern}
 * ({@code *}, {@code ?}, {@code [..]} within a name, {@code **} across directories); {@code exclude}
 * an optional pattern to drop; {@code type} any|file|directory; {@code maxResults} 1..1000 (null: 50).
 * Never follows links.
 */
public record GlobFiles(SandboxRef sandbox, String path, String pattern, String exclude, String type, Integer maxResults) {}
