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
 * too many events (or bytes) are in flight and at the end ({@link #drain()}). A failed publish is logged and the run
 * goes on: the conversation in task-service remains the record.
 */
public final class RunEventStream {

  private static final int MAX_IN_FLIGHT = 256;
  /** Bytes of events awaiting their ack, at most: with big tool outputs 256 events could be 25 MB. */
  static final long MAX_IN_FLIGHT_BYTES = 1 << 20;
  private static final long ACK_WAIT_SECONDS = 5;

  private final JetStreamPublisher publisher;
  private final String taskId;
  private final String runId;
  private final Deque<Pending> inFlight = new ArrayDeque<>();
  private long inFlightBytes;
  private long seq;

  private record Pending(CompletableFuture<Long> ack, long bytes) {}

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
    CompletableFuture<Long> ack = publisher.publish(Subjects.RUN_EVENTS, event, TaskServiceClient.RUNNER, taskId, runId)
        .subscribeAsCompletionStage()
        .whenComplete((ignored, failure) -> {
          if (failure != null) {
            Log.warnf("run %s: event %d (%s) not published: %s", runId, next, type.wire(), failure.getMessage());
          }
        });
    long bytes = estimatedBytes(body);
    inFlight.addLast(new Pending(ack, bytes));
    inFlightBytes += bytes;
    while (inFlight.size() > MAX_IN_FLIGHT || inFlightBytes > MAX_IN_FLIGHT_BYTES) {
      settleOldest(true);
    }
    while (!inFlight.isEmpty() && inFlight.peekFirst().ack().isDone()) {
      settleOldest(false);
    }
    return next;
  }

  /** Waits until every event so far is stored (or failed). */
  public synchronized void drain() {
    while (!inFlight.isEmpty()) {
      settleOldest(true);
    }
  }

  public synchronized long lastSeq() {
    return seq;
  }

  private void settleOldest(boolean wait) {
    Pending oldest = inFlight.removeFirst();
    inFlightBytes -= oldest.bytes();
    if (wait) {
      await(oldest.ack());
    }
  }

  /** The event's text, about as many bytes as it encodes to (deltas and tool output are most of it). */
  private static long estimatedBytes(Map<String, Object> body) {
    long bytes = 128;
    for (Object value : body.values()) {
      bytes += value instanceof CharSequence text ? text.length() : 16;
    }
    return bytes;
  }

  private static void await(CompletableFuture<Long> ack) {
    try {
      ack.get(ACK_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      // already logged by the completion handler, or too slow: the run goes on either way
    }
  }
}
