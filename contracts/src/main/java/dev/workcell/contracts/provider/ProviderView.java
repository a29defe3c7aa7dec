package dev.workcell.contracts.provider;

import dev.workcell.contracts.task.ProviderKind;
import java.time.Instant;
import java.util.List;

/** An admin-configured provider as admins see it: the key itself never leaves task-service this way. */
public record ProviderView(
    String id,
    ProviderKind kind,
    String baseUrl,
    boolean hasApiKey,
    List<String> models,
    Instant createdAt,
    Instant updatedAt) {}
