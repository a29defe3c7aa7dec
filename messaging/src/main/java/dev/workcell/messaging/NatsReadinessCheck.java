package dev.workcell.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready only while NATS is connected and the contract's streams exist. */
@Readiness
@ApplicationScoped
public class NatsReadinessCheck implements HealthCheck {

  private final NatsConnection nats;
  private final StreamProvisioner streams;

  public NatsReadinessCheck(NatsConnection nats, StreamProvisioner streams) {
    this.nats = nats;
    this.streams = streams;
  }

  @Override
  public HealthCheckResponse call() {
    return HealthCheckResponse.named("nats")
        .status(nats.connected() && streams.ready())
        .withData("url", nats.url())
        .withData("streams", streams.ready())
        .build();
  }
}
