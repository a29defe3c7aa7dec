package dev.workcell.contracts.run;

import java.util.Map;

/** One live event of a run; {@code seq} is the per-run sequence id an SSE client resumes from. */
public record RunEvent(String taskId, String runId, long seq, RunEventType type, long atEpochMs, Map<String, Object> data) {}
