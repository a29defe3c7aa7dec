package dev.workcell.gateway.run.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.gateway.run.config.RunStreamSettings;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.OrderedConsumerConfiguration;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

/**
 * Opens live run streams. Each client gets its own ordered JetStream consumer on the run's subject,
 * so every client sees the same per-run order and a gateway restart loses nothing: the stream keeps
 * the events and the client resumes from its last event id.
 */
@ApplicationScoped
public class RunEventStreams {

  private final NatsConnection nats;
  private final ObjectMapper json;
  private final RunStreamSettings settings;
  private final Vertx vertx;

  public RunEventStreams(NatsConnection nats, ObjectMapper json, RunStreamSettings settings, Vertx vertx) {
    this.nats = nats;
    this.json = json;
    this.settings = settings;
    this.vertx = vertx;
  }

  public void open(SseEventSink sink, Sse sse, HttpConnection connection, RunSnapshot snapshot) {
    String subject = Subjects.runEvents(snapshot.task().id(), snapshot.runId());
    RunEventStream stream = new RunEventStream(sink, sse, json, settings, vertx, connection,
        handler -> nats.connection().getStreamContext(Streams.RUN_EVENTS.name())
            .createOrderedConsumer(new OrderedConsumerConfiguration().filterSubject(subject).deliverPolicy(DeliverPolicy.All))
            .consume(handler),
        snapshot.after());
    stream.sendSnapshot(snapshot);
    stream.follow();
  }
}
