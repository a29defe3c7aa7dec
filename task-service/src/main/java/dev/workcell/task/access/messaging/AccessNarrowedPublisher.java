package dev.workcell.task.access.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskSubjects.AccessNarrowed;
import dev.workcell.messaging.ActorHeaders;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.TraceContext;
import io.nats.client.Connection;
import io.nats.client.impl.Headers;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Tells the gateways, right after a revocation is committed, to stop reusing ownership checks of
 * that account or task. Fire and forget: a gateway that missed it (disconnected) forgets every
 * check when it reconnects, and no check is reused past its expiry anyway.
 */
@ApplicationScoped
public class AccessNarrowedPublisher {

  private static final Actor SELF = Actor.service(ServiceName.TASK);

  private final NatsConnection nats;
  private final MessageCodec codec;

  public AccessNarrowedPublisher(NatsConnection nats, MessageCodec codec) {
    this.nats = nats;
    this.codec = codec;
  }

  public void push(AccessNarrowed change) {
    try {
      Connection connection = nats.connection();
      connection.publish(TaskSubjects.ACCESS_NARROWED.pattern(),
          ActorHeaders.write(new Headers(), SELF, TraceContext.outgoing()), codec.encode(change));
      connection.flushBuffer(); // now, not with the next request's write
    } catch (Exception e) {
      Log.warnf("access narrowed (%s) not pushed; gateways forget it within their expiry: %s", change, e.toString());
    }
  }
}
