package dev.workcell.gateway.git.rest;

/** A local branch name, as git's check-ref-format --branch accepts it (at most 200 characters). */
public record GitBranchRequest(String name) {}
