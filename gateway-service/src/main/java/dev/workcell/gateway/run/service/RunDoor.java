package dev.workcell.gateway.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.contracts.sandbox.RuntimeUsageQuery;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.NatsRequester;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Admission at the door of a new run: a run that could not even wait in line for a sandbox slot
 * (the line is full) is refused with 429 {@code too_many_runtimes} and Retry-After before anything
 * is created; one that can wait is created and waits in agent-runner. Asked as the gateway for the
 * token's account, so nothing is sent for the caller before task-service has checked it.
 */
@ApplicationScoped
public class RunDoor {

  private static final Actor GATEWAY = Actor.service(ServiceName.GATEWAY);
  private static final Duration DEADLINE = Duration.ofSeconds(2);

  private final NatsRequester nats;
  private final JsonWebToken token;

  public RunDoor(NatsRequester nats, JsonWebToken token) {
    this.nats = nats;
    this.token = token;
  }

  /** Then {@code next}, unless the line for sandbox slots is full (sandbox-service away: the run itself will say so). */
  public <T> Uni<T> then(Uni<T> next) {
    return nats.request(SandboxSubjects.RUNTIME_USAGE, new RuntimeUsageQuery(token.getSubject()), GATEWAY, DEADLINE)
        .onFailure().recoverWithItem(failure -> {
          Log.debugf("runtime use unknown, letting the run in: %s", failure.getMessage());
          return null;
        })
        .chain(usage -> {
          if (usage != null && usage.available() && !usage.runCanQueue()) {
            return Uni.createFrom().failure(new WorkcellException(ErrorCode.TOO_MANY_RUNTIMES, "all " + usage.globalCap()
                + " sandbox slots are in use and " + usage.waiting() + " runs already wait for one; try again shortly"));
          }
          return next;
        });
  }
}
