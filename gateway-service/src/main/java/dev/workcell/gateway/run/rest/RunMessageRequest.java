package dev.workcell.gateway.run.rest;

/** A follow-up run's first message, or a message to the active run. */
public record RunMessageRequest(String message) {}
