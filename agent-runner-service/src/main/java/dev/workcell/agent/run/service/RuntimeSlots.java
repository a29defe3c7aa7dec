package dev.workcell.agent.run.service;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.HoldRuntime;
import dev.workcell.contracts.sandbox.ReleaseRuntime;
import dev.workcell.contracts.sandbox.RuntimeHold;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.NatsRequester;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A run's hold on its task's sandbox slot, from before its first round to its end: taken at once
 * or after waiting in line up to WORK_RUN_LEASE_WAIT_MS, renewed with every lease heartbeat (so it
 * lapses within {@link #ttl()} if this runner dies), released when the run ends. The model never
 * meets a runtime cap: a run that gets no slot ends before its first round.
 */
@ApplicationScoped
public class RuntimeSlots {

  private static final Duration MIN_TTL = Duration.ofSeconds(30);
  private static final Duration WAIT_SLICE = Duration.ofMillis(250);

  private final NatsRequester nats;
  private final AgentSettings settings;
  private final Map<String, SandboxRef> held = new ConcurrentHashMap<>();

  public RuntimeSlots(NatsRequester nats, AgentSettings settings) {
    this.nats = nats;
    this.settings = settings;
  }

  /** How a run's attempt to take its slot ended. */
  public sealed interface Outcome {
    /** The slot is held (or sandbox-service could not be asked: the tools will say so). */
    record Held() implements Outcome {}

    /** No slot within the wait, or the line was full: the run ends needs_input with {@code reason}. */
    record Refused(String reason) implements Outcome {}
  }

  /**
   * Takes the run's slot; when none is free, calls {@code waiting} once and waits in line. Stops
   * waiting when the run ends meanwhile (cancelled): the wait is released and Held is answered, for
   * the caller to notice the end.
   */
  public Outcome acquire(SandboxRef sandbox, RunSignals signals, Runnable waiting) {
    String runId = signals.ref().runId();
    try {
      hold(sandbox, runId, Duration.ZERO);
      held.put(runId, sandbox);
      return new Outcome.Held();
    } catch (WorkcellException e) {
      if (e.code() != ErrorCode.TOO_MANY_RUNTIMES) {
        Log.warnf("run %s: could not hold a sandbox slot (%s); going on without", runId, e.getMessage());
        return new Outcome.Held();
      }
    }
    waiting.run();
    held.put(runId, sandbox); // released at the end even if the wait is cut short
    CompletableFuture<RuntimeHold> inLine = nats.request(SandboxSubjects.LEASE_HOLD, request(sandbox, runId, settings.runLeaseWait()), TaskServiceClient.RUNNER, settings.runLeaseWait().plus(settings.sandboxTimeout()))
        .subscribeAsCompletionStage();
    while (true) {
      try {
        inLine.get(WAIT_SLICE.toMillis(), TimeUnit.MILLISECONDS);
        return new Outcome.Held();
      } catch (TimeoutException stillWaiting) {
        if (signals.ended() != null) {
          release(runId);
          return new Outcome.Held();
        }
      } catch (ExecutionException e) {
        if (e.getCause() instanceof WorkcellException refused && refused.code() == ErrorCode.TOO_MANY_RUNTIMES) {
          held.remove(runId);
          return new Outcome.Refused(refused.getMessage());
        }
        Log.warnf("run %s: waiting for a sandbox slot failed (%s); going on without", runId, e.getCause());
        return new Outcome.Held();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        release(runId);
        return new Outcome.Held();
      }
    }
  }

  /** Renews every hold of this runner; a lapsed one is taken again if a slot is free. */
  public void renewAll() {
    held.forEach((runId, sandbox) -> {
      try {
        hold(sandbox, runId, Duration.ZERO);
      } catch (RuntimeException e) {
        Log.debugf("run %s: renewing the sandbox slot failed: %s", runId, e.getMessage());
      }
    });
  }

  /** Ends the run's hold (or its wait); the sandbox stops after sandbox-service's release grace. */
  public void release(String runId) {
    SandboxRef sandbox = held.remove(runId);
    if (sandbox == null) {
      return;
    }
    try {
      nats.request(SandboxSubjects.LEASE_RELEASE, new ReleaseRuntime(sandbox, runId), TaskServiceClient.RUNNER,
          settings.sandboxTimeout()).await().atMost(settings.sandboxTimeout().plusSeconds(1));
    } catch (RuntimeException e) {
      Log.infof("run %s: releasing the sandbox slot failed (%s); it lapses within %s", runId, e.getMessage(), ttl());
    }
  }

  /** A hold lapses this long after its last renewal. */
  Duration ttl() {
    Duration sixBeats = settings.leaseHeartbeat().multipliedBy(6);
    return sixBeats.compareTo(MIN_TTL) > 0 ? sixBeats : MIN_TTL;
  }

  private void hold(SandboxRef sandbox, String runId, Duration wait) {
    nats.request(SandboxSubjects.LEASE_HOLD, request(sandbox, runId, wait), TaskServiceClient.RUNNER,
        settings.sandboxTimeout()).await().atMost(settings.sandboxTimeout().plusSeconds(1));
  }

  private HoldRuntime request(SandboxRef sandbox, String runId, Duration wait) {
    return new HoldRuntime(sandbox, runId, ttl().toMillis(), wait.toMillis());
  }
}
