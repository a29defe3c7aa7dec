package dev.workcell.agent.run.service;

import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.agent.tool.service.ToolOutcome;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.ToolCall;
import io.quarkus.logging.Log;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The run's writes to task-service — each round (usage and assistant message) and each tool call
 * (one write at its start, one at its end with the tool message) — sent strictly one after another
 * on a virtual thread of the run's, so a round does not wait for them: a tool result lands while
 * the next model request streams, an assistant message while its read-only tools run. The loop
 * waits ({@link #settle()}) where it matters: before asking for pending messages (the conversation
 * is stored before the messages posted meanwhile), before a tool that changes something runs, and
 * before the run ends. Once one write is refused (the run ended in task-service), later ones are
 * not sent (no gaps) and the refusal surfaces at the next call; at most {@value #MAX_QUEUED} wait
 * at a time.
 */
final class RunWrites {

  static final int MAX_QUEUED = 16;

  private final TaskServiceClient tasks;
  private final RunRef ref;
  private final ExecutorService serial = Executors.newSingleThreadExecutor(Thread.ofVirtual().name("run-writes-", 0).factory());
  private final AtomicInteger queued = new AtomicInteger();
  private CompletableFuture<Void> last = CompletableFuture.completedFuture(null);
  private volatile RuntimeException refused;

  RunWrites(TaskServiceClient tasks, RunRef ref) {
    this.tasks = tasks;
    this.ref = ref;
  }

  /** A round: its usage and, unless {@code text} is null, the assistant message with its tool calls. */
  void round(Usage usage, String text, List<ToolCall> calls) {
    submit(() -> tasks.round(ref, usage.input(), usage.output(), usage.toolCalls(), text, calls));
  }

  /** A tool call starts running: its Activity record (running). */
  void toolStarted(ToolCall call) {
    submit(() -> tasks.toolStarted(ref, call));
  }

  /** A tool call ended (or never ran): its Activity record's result and the tool message. */
  void toolFinished(ToolCall call, ToolOutcome outcome) {
    submit(() -> tasks.toolFinished(ref, call, outcome.status(), outcome.output(), outcome.truncated()));
  }

  /** Waits until every queued write is stored (each has the client's deadline); throws a refusal. */
  void settle() {
    last.join();
    throwIfRefused();
  }

  /** Lets the queue finish and stops its thread; a refusal is only logged (the run is ending anyway). */
  void close() {
    try {
      last.join();
    } finally {
      serial.shutdown();
    }
    RuntimeException failure = refused;
    if (failure != null) {
      Log.debugf("run %s: a write was refused: %s", ref.runId(), failure.getMessage());
    }
  }

  /** Queues one write after the ones before it; throws at once if an earlier one was refused. */
  private void submit(Runnable write) {
    if (queued.get() >= MAX_QUEUED) {
      settle(); // task-service is slower than the rounds: wait rather than queue without bound
    }
    throwIfRefused();
    queued.incrementAndGet();
    last = CompletableFuture.runAsync(() -> {
      try {
        if (refused == null) {
          write.run();
        }
      } catch (RuntimeException e) {
        refused = e;
      } finally {
        queued.decrementAndGet();
      }
    }, serial);
  }

  private void throwIfRefused() {
    RuntimeException failure = refused;
    if (failure != null) {
      throw failure;
    }
  }

  /** A round's token usage and how many tool calls it asked for. */
  record Usage(long input, long output, int toolCalls) {}
}
