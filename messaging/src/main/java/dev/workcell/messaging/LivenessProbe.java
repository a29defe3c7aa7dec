package dev.workcell.messaging;

import io.nats.client.Message;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Asks an instance's liveness subject ({@code workcell.<service>.alive.<instance>}, decision 0024)
 * and acts only on NATS' own "no responders": the instance's connection is gone, a fact. An answer,
 * or none within the timeout (a busy or loaded instance), proves nothing and does nothing. At most
 * one ask per subject is out at a time.
 */
final class LivenessProbe {

  private final NatsConnection nats;
  private final Duration timeout;
  private final Set<String> asking = ConcurrentHashMap.newKeySet();

  LivenessProbe(NatsConnection nats, Duration timeout) {
    this.nats = nats;
    this.timeout = timeout;
  }

  /** Runs {@code gone} (on a NATS thread) when nobody listens on {@code alive} any more. */
  void ask(String alive, Runnable gone) {
    if (!nats.connected() || !asking.add(alive)) {
      return;
    }
    nats.connection().requestWithTimeout(alive, new byte[0], timeout).whenComplete((answer, failure) -> {
      asking.remove(alive);
      if (nobodyListens(answer, failure)) {
        gone.run();
      }
    });
  }

  /** Runs a task every interval on a daemon thread of its own, from the first {@link #start()} on: the probing tick. */
  static final class Tick {

    private final Duration every;
    private final String thread;
    private final Runnable task;
    private volatile ScheduledExecutorService executor;

    Tick(Duration every, String thread, Runnable task) {
      this.every = every;
      this.thread = thread;
      this.task = task;
    }

    /** Cheap once started: called on every request that may need probing. */
    void start() {
      if (executor == null) {
        synchronized (this) {
          if (executor == null) {
            ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(runnable -> {
              Thread daemon = new Thread(runnable, thread);
              daemon.setDaemon(true);
              return daemon;
            });
            started.scheduleWithFixedDelay(task, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
            executor = started;
          }
        }
      }
    }
  }

  /** NATS' own "no responders" (status 503): nobody is subscribed to the subject. */
  private static boolean nobodyListens(Message answer, Throwable failure) {
    if (answer != null) {
      return answer.isStatusMessage() && answer.getStatus().getCode() == 503;
    }
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    String text = String.valueOf(cause == null ? null : cause.getMessage());
    return text.contains("503") || text.contains("No Responders");
  }
}
