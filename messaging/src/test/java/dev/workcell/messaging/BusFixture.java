package dev.workcell.messaging;

import dev.workcell.contracts.ServiceName;
import io.vertx.core.Vertx;

/**
 * A test class's Vert.x and its own bus on it, as a static field JUnit closes after the class
 * ({@code @AutoClose}); further buses of the test share the Vert.x.
 */
final class BusFixture implements AutoCloseable {

  final Vertx vertx = Vertx.vertx();
  final TestBus bus;

  BusFixture(ServiceName service) {
    try {
      bus = new TestBus(vertx, service.id());
    } catch (Exception e) {
      vertx.close();
      throw new IllegalStateException("no test bus for " + service, e);
    }
  }

  @Override
  public void close() throws Exception {
    bus.close();
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }
}
