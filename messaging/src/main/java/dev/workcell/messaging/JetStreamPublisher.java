package dev.workcell.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;

/** Publishes to a JetStream stream and returns the stream sequence once the server stored it. */
@ApplicationScoped
public class JetStreamPublisher {

  private final NatsConnection nats;
  private final MessageCodec codec;

  public JetStreamPublisher(NatsConnection nats, MessageCodec codec) {
    this.nats = nats;
    this.codec = codec;
  }

  public Uni<Long> publish(String subject, Object body, Actor actor) {
    return Uni.createFrom().deferred(() -> {
      if (!nats.connected()) {
        return Uni.createFrom().failure(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "message bus is not connected"));
      }
      Headers headers = ActorHeaders.write(new Headers(), actor, TraceContext.outgoing());
      var message = NatsMessage.builder().subject(subject).headers(headers).data(codec.encode(body)).build();
      try {
        return Uni.createFrom().completionStage(nats.connection().jetStream().publishAsync(message))
            .map(PublishAck::getSeqno)
            .onFailure(e -> !(e instanceof WorkcellException))
            .transform(e -> new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "jetstream publish on " + subject + " failed", e));
      } catch (IOException e) {
        return Uni.createFrom().failure(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "jetstream unavailable", e));
      }
    });
  }
}
