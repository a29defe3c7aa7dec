package dev.workcell.gateway.approval.rest;

/** {@code decision}: allow_once, always_allow or deny. */
public record DecisionRequest(String decision) {}
