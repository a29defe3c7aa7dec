package dev.workcell.gateway.git.rest;

import java.util.List;

/** Workspace-relative paths to stage (at most 200): new and changed files are added, deleted tracked ones removed. */
public record GitStageRequest(List<String> paths) {}
