package dev.workcell.cli;

import dev.workcell.messaging.NatsConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/** Waits for the bus: a CLI run is short, so it must not race the background connect. */
@ApplicationScoped
public class BusConnection {

  private final NatsConnection nats;

  public BusConnection(NatsConnection nats) {
    this.nats = nats;
  }

  public boolean await(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!nats.connected()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }
}
