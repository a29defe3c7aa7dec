package dev.workcell.gateway.preview.rest;

import java.time.Instant;

/**
 * A started preview: {@code url} (signed, on the gateway's public origin; {@code path} the same
 * without the origin) works until {@code expiresAt} or until the preview stops or restarts.
 */
public record StartedPreview(String taskId, boolean running, String command, int containerPort, long generation,
    String url, String path, Instant expiresAt) {}
