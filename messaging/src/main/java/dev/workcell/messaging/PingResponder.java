package dev.workcell.messaging;

import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.ping.Ping;
import dev.workcell.contracts.ping.Pong;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.lang.management.ManagementFactory;
import java.util.UUID;

/** Every service answers {@code workcell.<service>.ping} so operators and tests can see it is alive. */
@ApplicationScoped
public class PingResponder {

  private final String instanceId = UUID.randomUUID().toString();

  void register(@Observes StartupEvent event, NatsResponder responder, ServiceIdentity identity) {
    if (!identity.answersPing()) {
      return;
    }
    responder.serve(Subjects.ping(identity.service()), request -> Uni.createFrom().item(new Pong(
        identity.name(), instanceId, identity.version(), ManagementFactory.getRuntimeMXBean().getUptime())));
  }
}
