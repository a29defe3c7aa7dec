package dev.workcell.agent.run.service;

import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.messaging.JetStreamPublisher;
import io.quarkus.logging.Log;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The live events of one run on {@code workcell.run.events.<task>.<run>}, numbered 1, 2, 3… Publishes
 * are pipelined: one connection keeps their order, so the run does not wait for each ack, only when
 * too many are in flight and at the end ({@link #drain()}). A failed publish is logged and the run
 * goes on: the conversation in task-service remains the record.
 */
public final class RunEventStream {

  private static final int MAX_IN_FLIGHT = 256;
  private static final long ACK_WAIT_SECONDS = 5;

  private final JetStreamPublisher publisher;
  private final String taskId;
  private final String runId;
  private final Deque<CompletableFuture<Long>> inFlight = new ArrayDeque<>();
  private long seq;

  public RunEventStream(JetStreamPublisher publisher, String taskId, String runId) {
    this.publisher = publisher;
    this.taskId = taskId;
    this.runId = runId;
  }

  /** Publishes one event; {@code data} is key/value pairs. Returns its seq. */
  public synchronized long emit(RunEventType type, Object... data) {
    Map<String, Object> body = new LinkedHashMap<>();
    for (int i = 0; i + 1 < data.length; i += 2) {
      body.put((String) data[i], data[i + 1]);
    }
    long next = ++seq;
    RunEvent event = new RunEvent(taskId, runId, next, type, System.currentTimeMillis(), body);
    // Subscribing sends at once on this thread, so the send order is the seq order.
    inFlight.addLast(publisher.publish(Subjects.RUN_EVENTS, event, TaskServiceClient.RUNNER, taskId, runId).subscribeAsCompletionStage()
        .whenComplete((ack, failure) -> {
          if (failure != null) {
            Log.warnf("run %s: event %d (%s) not published: %s", runId, next, type.wire(), failure.getMessage());
          }
        }));
    while (inFlight.size() > MAX_IN_FLIGHT) {
      await(inFlight.removeFirst());
    }
    while (!inFlight.isEmpty() && inFlight.peekFirst().isDone()) {
      inFlight.removeFirst();
    }
    return next;
  }

  /** Waits until every event so far is stored (or failed). */
  public synchronized void drain() {
    while (!inFlight.isEmpty()) {
      await(inFlight.removeFirst());
    }
  }

  public synchronized long lastSeq() {
    return seq;
  }

  private static void await(CompletableFuture<Long> ack) {
    try {
      ack.get(ACK_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      // already logged by the completion handler, or too slow: the run goes on either way
    }
  }
}
