package dev.workcell.gateway.run.service;

import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.TaskApi.RunDetail;
import dev.workcell.contracts.task.TaskView;

/**
 * The first frame of a live stream: the task and the run as they are now, and the event id the
 * stream continues after. {@code run} is the streamed run itself, an older one too (with how it
 * ended), as task-service answers it to the owner.
 */
public record RunSnapshot(TaskView task, RunView run, String runId, long after) {

  static RunSnapshot of(RunDetail detail, long after) {
    return new RunSnapshot(detail.task(), detail.run(), detail.run().id(), after);
  }
}
