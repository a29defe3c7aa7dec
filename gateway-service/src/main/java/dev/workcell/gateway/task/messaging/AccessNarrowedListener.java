package dev.workcell.gateway.task.messaging;

import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskSubjects.AccessNarrowed;
import dev.workcell.gateway.task.service.OwnershipChecks;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hears task-service's {@link TaskSubjects#ACCESS_NARROWED} and makes {@link OwnershipChecks} forget.
 * After every (re)connect it forgets everything: a notice sent while the gateway was away is lost.
 */
@ApplicationScoped
public class AccessNarrowedListener {

  private final OwnershipChecks checks;
  private final MessageCodec codec;
  private final AtomicLong heard = new AtomicLong();
  private Connection subscribedOn;

  public AccessNarrowedListener(OwnershipChecks checks, MessageCodec codec) {
    this.checks = checks;
    this.codec = codec;
  }

  void start(@Observes StartupEvent event, NatsConnection nats) {
    nats.whenConnected(this::connected);
  }

  private synchronized void connected(Connection connection) {
    checks.forgetAll();
    // jnats restores its subscriptions after a reconnect; a second one would hear every notice twice.
    if (subscribedOn != connection) {
      connection.createDispatcher(this::heard).subscribe(TaskSubjects.ACCESS_NARROWED.pattern());
      subscribedOn = connection;
    }
  }

  /** Notices handled so far. */
  public long heard() {
    return heard.get();
  }

  private void heard(Message message) {
    try {
      forget(message);
    } finally {
      heard.incrementAndGet();
    }
  }

  private void forget(Message message) {
    AccessNarrowed change;
    try {
      change = codec.decode(message.getData(), AccessNarrowed.class);
    } catch (RuntimeException e) {
      Log.warnf("access narrowed: unreadable notice, forgetting every ownership check: %s", e.toString());
      checks.forgetAll();
      return;
    }
    if (change.accountId() == null) {
      checks.forgetAll();
    } else if (change.taskId() == null) {
      checks.forgetAccount(change.accountId());
    } else {
      checks.forgetTask(change.taskId());
    }
  }
}
