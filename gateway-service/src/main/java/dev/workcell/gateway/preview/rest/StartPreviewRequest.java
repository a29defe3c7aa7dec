package dev.workcell.gateway.preview.rest;

/** {@code command} may be absent: sandbox-service then looks for a dev script or a static index.html. */
public record StartPreviewRequest(String command) {}
