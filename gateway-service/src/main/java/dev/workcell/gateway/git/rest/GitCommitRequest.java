package dev.workcell.gateway.git.rest;

/** The commit message (1..4,000 characters); author and committer are the calling account. */
public record GitCommitRequest(String message) {}
