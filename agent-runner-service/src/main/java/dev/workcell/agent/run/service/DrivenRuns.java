package dev.workcell.agent.run.service;

import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.agent.tool.client.CommandCanceller;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.contracts.task.RunControlApi.RunControl;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs this runner drives right now, each with its {@link RunSignals}. While a run is driven
 * the runner listens on its control subject: task-service pushes cancel, message and approval
 * there. A cancel or end is confirmed with task-service before the run stops (anyone who can
 * publish on the subject could send one). A message push makes the next round ask for pending
 * messages; rounds without one skip the ask until a fallback interval passed (a lost push).
 */
@ApplicationScoped
public class DrivenRuns {

  private final NatsConnection nats;
  private final MessageCodec codec;
  private final TaskServiceClient tasks;
  private final CommandCanceller commands;
  private final Map<String, RunSignals> runs = new ConcurrentHashMap<>();
  private final String runnerId = "agent-runner-" + UUID.randomUUID();
  private volatile Dispatcher dispatcher;

  public DrivenRuns(NatsConnection nats, MessageCodec codec, TaskServiceClient tasks, CommandCanceller commands) {
    this.nats = nats;
    this.codec = codec;
    this.tasks = tasks;
    this.commands = commands;
  }

  void start(@Observes StartupEvent event) {
    // Pushes are lost while the connection is down: after a reconnect every driven run asks at its next round.
    nats.whenConnected(connection -> runs.values().forEach(RunSignals::messagePosted));
  }

  /** This process's id in the leases it holds. */
  public String runnerId() {
    return runnerId;
  }

  /** Starts listening for the run; call {@link #close} when it ends. */
  public RunSignals open(RunRef ref) {
    RunSignals signals = new RunSignals(ref, commands);
    runs.put(ref.runId(), signals);
    try {
      dispatcher().subscribe(RunControlApi.controlSubject(ref.runId()));
    } catch (RuntimeException e) {
      Log.warnf("run %s: control subject not subscribed (polling only): %s", ref.runId(), e.getMessage());
    }
    return signals;
  }

  public void close(RunSignals signals) {
    runs.remove(signals.ref().runId());
    try {
      dispatcher().unsubscribe(RunControlApi.controlSubject(signals.ref().runId()));
    } catch (RuntimeException e) {
      Log.debugf("run %s: control unsubscribe: %s", signals.ref().runId(), e.getMessage());
    }
  }

  /** True while this runner drives the run (a redelivered request for it is not taken again). */
  public boolean drives(String runId) {
    return runs.containsKey(runId);
  }

  public Collection<RunSignals> all() {
    return runs.values();
  }

  private synchronized Dispatcher dispatcher() {
    if (dispatcher == null) {
      dispatcher = nats.connection().createDispatcher(this::onControl);
    }
    return dispatcher;
  }

  private void onControl(Message message) {
    RunControl control;
    try {
      control = codec.decode(message.getData(), RunControl.class);
    } catch (RuntimeException e) {
      return; // not ours to read
    }
    RunSignals signals = control.runId() == null ? null : runs.get(control.runId());
    if (signals == null || !signals.ref().taskId().equals(control.taskId())) {
      return;
    }
    if (RunControlApi.CANCEL.equals(control.kind()) || RunControlApi.ENDED.equals(control.kind())) {
      Thread.ofVirtual().name("confirm-end-" + control.runId()).start(() -> confirmEnded(signals));
    } else if (RunControlApi.APPROVAL.equals(control.kind())) {
      signals.wake();
    } else {
      signals.messagePosted(); // message, or a kind this runner does not know yet: ask at the next round
    }
  }

  /** Asks task-service whether the run really ended, and stops it if so. */
  private void confirmEnded(RunSignals signals) {
    try {
      RunState state = tasks.state(signals.ref(), runnerId);
      if (!state.active()) {
        signals.end(state, "the run was " + state.wire() + " in task-service");
      }
    } catch (RuntimeException e) {
      Log.warnf("run %s: end not confirmed: %s", signals.ref().runId(), e.getMessage());
    }
  }
}
