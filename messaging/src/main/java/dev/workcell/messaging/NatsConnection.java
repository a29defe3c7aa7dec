package dev.workcell.messaging;

import dev.workcell.contracts.subject.NatsUser;
import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The one NATS connection of a service. It connects at start but never blocks start-up on NATS:
 * the client keeps reconnecting in the background and readiness reports the truth meanwhile.
 */
@ApplicationScoped
public class NatsConnection {

  private final NatsSettings settings;
  private final ServiceIdentity identity;
  private final List<Consumer<Connection>> onConnect = new CopyOnWriteArrayList<>();
  private volatile Connection connection;

  public NatsConnection(NatsSettings settings, ServiceIdentity identity) {
    this.settings = settings;
    this.identity = identity;
  }

  void start(@Observes @Priority(10) StartupEvent event) throws IOException, InterruptedException {
    Options.Builder options = new Options.Builder()
        .server(settings.url())
        .connectionName(identity.name())
        .connectionTimeout(settings.connectTimeout())
        .maxReconnects(-1)
        .reconnectWait(Duration.ofMillis(500))
        .reportNoResponders()
        .connectionListener(this::onEvent);
    if (settings.user().isPresent()) {
      options.userInfo(settings.user().get(), settings.password().orElse(""));
    }
    // Replies come to inboxes under the user's own prefix, the only inboxes its NATS user may read.
    options.inboxPrefix(NatsUser.inboxPrefix(settings.user().orElse(identity.name())));
    connection = Nats.connectReconnectOnConnect(options.build());
    if (connected()) {
      runConnectHooks();
    }
  }

  void stop(@Observes ShutdownEvent event) {
    Connection current = connection;
    if (current != null) {
      try {
        current.drain(Duration.ofSeconds(2)).get();
      } catch (Exception e) {
        Log.debugf("drain at shutdown: %s", e.toString());
      }
    }
  }

  /** Runs {@code hook} now if connected and again after every (re)connect. */
  public void whenConnected(Consumer<Connection> hook) {
    onConnect.add(hook);
    if (connected()) {
      hook.accept(connection);
    }
  }

  public Connection connection() {
    return connection;
  }

  public boolean connected() {
    Connection current = connection;
    return current != null && current.getStatus() == Connection.Status.CONNECTED;
  }

  public String url() {
    return settings.url();
  }

  private void onEvent(Connection conn, ConnectionListener.Events type) {
    Log.infof("nats %s (%s)", type.name().toLowerCase(), settings.url());
    if (type == ConnectionListener.Events.CONNECTED || type == ConnectionListener.Events.RECONNECTED) {
      if (connection == null) {
        connection = conn;
      }
      runConnectHooks();
    }
  }

  private void runConnectHooks() {
    for (Consumer<Connection> hook : onConnect) {
      try {
        hook.accept(connection);
      } catch (RuntimeException e) {
        Log.errorf(e, "nats connect hook failed");
      }
    }
  }
}
