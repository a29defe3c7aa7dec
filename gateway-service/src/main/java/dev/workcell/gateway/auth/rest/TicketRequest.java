package dev.workcell.gateway.auth.rest;

/** {@code audience}: terminal or screen; the ticket is bound to it and to one task. */
public record TicketRequest(String audience, String taskId) {}
