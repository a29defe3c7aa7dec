package dev.workcell.gateway.problem;

/** An RFC 9457 problem document; {@code code} is the stable code from contracts. */
public record Problem(String type, String title, int status, String detail, String code, String instance) {}
