package dev.workcell.gateway.approval.rest;

/** Turns approvals for the task on or off ({@code enabled} is required). */
public record SetApprovalsRequest(Boolean enabled) {}
