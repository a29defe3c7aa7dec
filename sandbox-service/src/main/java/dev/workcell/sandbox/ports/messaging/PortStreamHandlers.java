package dev.workcell.sandbox.ports.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.PortStreamApi.OpenPortStream;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.messaging.SandboxAccess;
import dev.workcell.sandbox.ports.service.OpenPortStreams;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves the port-stream subjects for the gateway's Open Terminal /proxy (a service actor; NATS refuses every other user). */
@ApplicationScoped
public class PortStreamHandlers {

  private final NatsResponder responder;
  private final OpenPortStreams streams;

  public PortStreamHandlers(NatsResponder responder, OpenPortStreams streams) {
    this.responder = responder;
    this.streams = streams;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.PORT_STREAM_OPEN, r -> {
      requireService(r.actor());
      OpenPortStream body = r.body();
      return streams.open(new OpenPortStream(SandboxAccess.require(r.actor(), body.sandbox()), body.streamId(), body.port()));
    });
    responder.serve(SandboxSubjects.PORT_STREAM_WRITE, r -> {
      requireService(r.actor());
      return streams.write(r.body().streamId(), r.body().data());
    });
    responder.serve(SandboxSubjects.PORT_STREAM_CLOSE, r -> {
      requireService(r.actor());
      return streams.close(r.body().streamId());
    });
  }

  /** Stream ids are the only handle on a stream: only a service (the gateway) may use them. */
  private static void requireService(Actor actor) {
    if (actor.role() != Actor.Role.SERVICE) {
      throw new WorkcellException(ErrorCode.FORBIDDEN, "port streams are opened by the gateway");
    }
  }
}
