package dev.workcell.agent.run.loop;

import dev.workcell.contracts.task.RunState;

/** How a run ended and why, as told to task-service and to the live stream. */
public record RunOutcome(RunState state, String reason) {}
