package dev.workcell.messaging;

import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the instances that hold long-lived state for this service — a terminal or a port stream
 * opened in sandbox-service — and says when one is gone (decision 0024's liveness probe, decision
 * 0017): a stream pushed by a killed instance otherwise just falls silent, and its client waits
 * forever. Each watched instance is asked once a second, one probe for all its streams; only NATS'
 * "no responders" counts, so a slow instance is never taken for dead. A restarted service has a new
 * instance name, so the old streams are reported even when the replacement is already up.
 */
@ApplicationScoped
public class InstanceWatch {

  static final Duration EVERY = Duration.ofSeconds(1);
  // No longer than a tick: an ask that went out just before the instance died waits its whole timeout
  // before the next ask can hear NATS' "no responders" (with 2 s, a terminal once waited 6 s for its
  // 1011 in CI, as long as two timed-out asks and their ticks). A timeout proves nothing either way, so a short one cannot take a live instance for dead.
  private static final Duration PROBE_TIMEOUT = EVERY;

  private final LivenessProbe probe;
  private final Map<String, Set<Runnable>> watched = new ConcurrentHashMap<>();
  private final LivenessProbe.Tick ticker = new LivenessProbe.Tick(EVERY, "nats-instance-watch", this::probeAll);

  public InstanceWatch(NatsConnection nats) {
    this.probe = new LivenessProbe(nats, PROBE_TIMEOUT);
  }

  /**
   * Runs {@code gone} once, on a NATS thread, when nobody listens on {@code alive} (the instance's
   * liveness subject from its accept) any more. Returns what stops the watch.
   */
  public Runnable watch(String alive, Runnable gone) {
    Runnable once = gone::run; // an entry of its own, even for a handler watched twice
    watched.computeIfAbsent(alive, key -> ConcurrentHashMap.newKeySet()).add(once);
    ticker.start();
    return () -> watched.computeIfPresent(alive, (key, set) -> {
      set.remove(once);
      return set.isEmpty() ? null : set;
    });
  }

  /** Instances watched now (tests). */
  int size() {
    return watched.size();
  }

  private void probeAll() {
    try {
      watched.keySet().forEach(alive -> probe.ask(alive, () -> {
        Set<Runnable> gone = watched.remove(alive);
        if (gone != null) {
          Log.infof("%d stream(s) lost: nobody listens on %s any more", gone.size(), alive);
          gone.forEach(InstanceWatch::runQuietly);
        }
      }));
    } catch (RuntimeException e) {
      Log.warnf(e, "probing the watched instances failed");
    }
  }

  private static void runQuietly(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      Log.warnf(e, "a lost stream's handler failed");
    }
  }
}
