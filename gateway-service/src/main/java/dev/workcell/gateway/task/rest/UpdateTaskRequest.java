package dev.workcell.gateway.task.rest;

/** Rename or re-route a task; absent fields stay as they are. */
public record UpdateTaskRequest(String title, String provider, String providerId, String model) {}
