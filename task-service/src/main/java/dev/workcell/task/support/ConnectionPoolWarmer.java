package dev.workcell.task.support;

import dev.workcell.messaging.NatsResponder;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Opens part of the PostgreSQL pool right after start. A burst of requests on a cold pool made every
 * request open its own connection at once (a scram-sha-256 login each, on a JIT that has not warmed
 * up), and task-service answered nothing for 10-15 s: 35 concurrent task reads all timed out, while
 * the same burst on an open pool took 0.55 s. The pool keeps idle connections, so this is paid once.
 */
@ApplicationScoped
public class ConnectionPoolWarmer {

  private final Pool pool;
  private final NatsResponder responder;
  private final int connections;

  public ConnectionPoolWarmer(Pool pool, NatsResponder responder,
      @ConfigProperty(name = "workcell.task.pool-warm-connections", defaultValue = "16") int connections) {
    this.pool = pool;
    this.responder = responder;
    this.connections = connections;
  }

  void warm(@Observes StartupEvent event) {
    if (connections <= 0) {
      return;
    }
    long started = System.nanoTime();
    Runnable serve = responder.holdStart();
    List<Uni<SqlConnection>> opening = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      opening.add(pool.getConnection());
    }
    // The service's subjects wait for it (a request on a cold pool outlived its deadline); a failure
    // only means the pool warms on demand.
    Uni.join().all(opening).andCollectFailures()
        .ifNoItem().after(Duration.ofSeconds(30)).fail()
        .subscribe().with(
            opened -> {
              opened.forEach(SqlConnection::closeAndForget); // back to the pool, still open
              serve.run();
              Log.infof("opened %d database connections in %d ms", opened.size(), (System.nanoTime() - started) / 1_000_000);
            },
            failure -> {
              Log.warnf("could not open the database pool ahead of use: %s", failure.getMessage());
              serve.run();
            });
  }
}
