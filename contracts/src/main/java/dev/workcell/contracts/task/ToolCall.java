package dev.workcell.contracts.task;

/**
 * A tool call an assistant message made. {@code arguments} is JSON text; arguments longer than the
 * stored tool-output limit are replaced by {@code {"truncated":true,"originalChars":N}}.
 */
public record ToolCall(String id, String name, String arguments) {}
