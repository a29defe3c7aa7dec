package dev.workcell.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready only while NATS is connected, the contract's streams exist and start-up work no longer holds the subjects back. */
@Readiness
@ApplicationScoped
public class NatsReadinessCheck implements HealthCheck {

  private final NatsConnection nats;
  private final StreamProvisioner streams;
  private final NatsResponder responder;

  public NatsReadinessCheck(NatsConnection nats, StreamProvisioner streams, NatsResponder responder) {
    this.nats = nats;
    this.streams = streams;
    this.responder = responder;
  }

  @Override
  public HealthCheckResponse call() {
    return HealthCheckResponse.named("nats")
        .status(nats.connected() && streams.ready() && responder.serving())
        .withData("url", nats.url())
        .withData("streams", streams.ready())
        .withData("serving", responder.serving())
        .build();
  }
}
