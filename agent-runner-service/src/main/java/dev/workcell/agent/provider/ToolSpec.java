package dev.workcell.agent.provider;

import java.util.Map;

/** A tool offered to the model: its name, what it does, and a JSON schema of its arguments. */
public record ToolSpec(String name, String description, Map<String, Object> parameters) {}
