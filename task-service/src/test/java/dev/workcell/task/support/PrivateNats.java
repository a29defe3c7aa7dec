package dev.workcell.task.support;

import dev.workcell.testing.PrivateNatsServer;
import io.quarkus.test.common.QuarkusTestResource;

/** Every Quarkus test of this module runs against a nats-server of its own (a resource on one class applies to all). */
@QuarkusTestResource(PrivateNatsServer.class)
public final class PrivateNats {

  private PrivateNats() {}
}
