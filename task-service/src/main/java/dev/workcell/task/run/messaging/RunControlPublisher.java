package dev.workcell.task.run.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.contracts.task.RunControlApi.RunControl;
import dev.workcell.contracts.task.RunState;
import dev.workcell.messaging.ActorHeaders;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.TraceContext;
import dev.workcell.task.config.TaskSettings;
import io.nats.client.impl.Headers;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Tells the runner driving a run, at once, that something changed: a small {@link RunControl} on
 * the run's core-NATS control subject. Fire and forget: nobody listening (no runner took the run
 * yet) is fine, and a lost message is covered by the runner's polling.
 */
@ApplicationScoped
public class RunControlPublisher {

  private static final Actor SELF = Actor.service(ServiceName.TASK);

  private final NatsConnection nats;
  private final MessageCodec codec;
  private final TaskSettings settings;

  public RunControlPublisher(NatsConnection nats, MessageCodec codec, TaskSettings settings) {
    this.nats = nats;
    this.codec = codec;
    this.settings = settings;
  }

  public void push(String taskId, String runId, String kind, RunState runState) {
    try {
      Headers headers = ActorHeaders.write(new Headers(), SELF, TraceContext.outgoing());
      nats.connection().publish(RunControlApi.controlSubject(runId), headers,
          codec.encode(new RunControl(taskId, runId, kind, runState)));
    } catch (RuntimeException e) {
      Log.warnf("run %s: control %s not pushed (the runner polls): %s", runId, kind, e.getMessage());
    }
  }
}
