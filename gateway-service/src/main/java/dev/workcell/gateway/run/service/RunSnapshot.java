package dev.workcell.gateway.run.service;

import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.TaskView;

/**
 * The first frame of a live stream: the task and the run as they are now, and the event id the
 * stream continues after. {@code run} is null for an older run task-service no longer reports.
 */
public record RunSnapshot(TaskView task, RunView run, String runId, long after) {}
