package dev.workcell.contracts.provider;

import java.time.Instant;
import java.util.List;

/** An admin-configured provider as admins see it: the key itself never leaves task-service this way. */
public record ProviderView(
    String id,
    String kind,
    String baseUrl,
    boolean hasApiKey,
    List<String> models,
    Instant createdAt,
    Instant updatedAt) {}
