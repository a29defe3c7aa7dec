package dev.workcell.agent.run.loop;

import dev.workcell.agent.run.taskservice.TaskServiceClient;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.ToolCall;
import io.quarkus.logging.Log;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The records of a run that the run never reads back — token usage and tool activity — sent to
 * task-service in order on one virtual thread of their own, so a round does not wait for them.
 * Appended messages stay on the round's path: the conversation in task-service must be complete
 * before the next round's pending check. {@link #drain()} before the run's final transition, so every
 * record lands while the run is still active. A refused record (the run ended in task-service) is
 * logged: the round's next synchronous call meets the same refusal and ends the run.
 */
final class RunRecords {

  private final TaskServiceClient tasks;
  private final RunRef ref;
  private final Duration patience;
  private final ExecutorService serial = Executors.newSingleThreadExecutor(Thread.ofVirtual().name("run-records-", 0).factory());

  RunRecords(TaskServiceClient tasks, RunRef ref, Duration patience) {
    this.tasks = tasks;
    this.ref = ref;
    this.patience = patience;
  }

  void usage(long input, long output, int rounds, int toolCalls) {
    submit("usage", () -> tasks.usage(ref, input, output, rounds, toolCalls));
  }

  void activity(ToolCall call, String status, String output, boolean truncated) {
    submit("tool activity " + status, () -> tasks.activity(ref, call, status, output, truncated));
  }

  /** Waits until every record so far is stored or refused; later records are not accepted. */
  void drain() {
    serial.shutdown();
    try {
      if (!serial.awaitTermination(patience.toMillis(), TimeUnit.MILLISECONDS)) {
        Log.warnf("run %s: records still unsent after %s", ref.runId(), patience);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void submit(String what, Runnable record) {
    try {
      serial.execute(() -> {
        try {
          record.run();
        } catch (RuntimeException e) {
          Log.warnf("run %s: %s not recorded: %s", ref.runId(), what, e.getMessage());
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      Log.debugf("run %s: %s after the run's end not recorded", ref.runId(), what);
    }
  }
}
