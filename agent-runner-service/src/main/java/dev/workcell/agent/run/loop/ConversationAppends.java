package dev.workcell.agent.run.loop;

import dev.workcell.agent.run.taskservice.TaskServiceClient;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.ToolCall;
import io.quarkus.logging.Log;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The run's own messages (assistant and tool) stored in task-service strictly one after another on
 * a virtual thread of the run's, so a round does not wait for each: a tool message lands while the
 * next model request streams, an assistant message while its read-only tools run. The loop waits
 * ({@link #settle()}) where it matters: before asking for pending messages (the conversation is
 * stored before the messages posted meanwhile), before a tool that changes something runs, and
 * before the run ends. Once one append is refused, later ones are not sent (no gaps) and the
 * refusal surfaces at the next call; at most {@value #MAX_QUEUED} wait at a time.
 */
final class ConversationAppends {

  static final int MAX_QUEUED = 16;

  private final TaskServiceClient tasks;
  private final RunRef ref;
  private final ExecutorService serial = Executors.newSingleThreadExecutor(Thread.ofVirtual().name("run-appends-", 0).factory());
  private final AtomicInteger queued = new AtomicInteger();
  private CompletableFuture<Void> last = CompletableFuture.completedFuture(null);
  private volatile RuntimeException refused;

  ConversationAppends(TaskServiceClient tasks, RunRef ref) {
    this.tasks = tasks;
    this.ref = ref;
  }

  /** Queues one message after the ones before it; throws at once if an earlier one was refused. */
  void append(MessageRole role, String content, String toolCallId, List<ToolCall> toolCalls) {
    if (queued.get() >= MAX_QUEUED) {
      settle(); // task-service is slower than the rounds: wait rather than queue without bound
    }
    throwIfRefused();
    queued.incrementAndGet();
    last = CompletableFuture.runAsync(() -> {
      try {
        if (refused == null) {
          tasks.append(ref, role, content, toolCallId, toolCalls);
        }
      } catch (RuntimeException e) {
        refused = e;
      } finally {
        queued.decrementAndGet();
      }
    }, serial);
  }

  /** Waits until every queued message is stored (each append has the client's deadline); throws a refusal. */
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
      Log.debugf("run %s: an appended message was refused: %s", ref.runId(), failure.getMessage());
    }
  }

  private void throwIfRefused() {
    RuntimeException failure = refused;
    if (failure != null) {
      throw failure;
    }
  }
}
