package dev.workcell.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Push;
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

  /** Publishes {@code body} on the push's subject with its variable tokens filled in order. */
  public <M> Uni<Long> publish(Push<M> push, M body, Actor actor, String... tokens) {
    return Uni.createFrom().deferred(() -> {
      String subject = push.subject(tokens);
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
