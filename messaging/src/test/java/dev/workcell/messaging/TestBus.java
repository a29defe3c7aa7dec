package dev.workcell.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Vertx;
import java.time.Duration;
import dev.workcell.testing.PrivateNatsServer;
import java.util.Optional;

/** The messaging beans wired by hand against the real test nats-server (started by bin/workcell test). */
final class TestBus implements AutoCloseable {

  /** One private nats-server for all of this module's tests, stopped when the JVM exits. */
  static final String URL = privateServer();

  private static String privateServer() {
    PrivateNatsServer server = new PrivateNatsServer();
    String url = server.startWith("");
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
    return url;
  }

  final NatsSettings settings;
  final NatsConnection connection;
  final MessageCodec codec = new MessageCodec(new ObjectMapper());
  final ReplyInbox inbox;
  final NatsRequester requester;
  final NatsResponder responder;
  final StreamProvisioner streams;

  TestBus(Vertx vertx, String serviceName) throws Exception {
    this(vertx, serviceName, settings(false));
  }

  TestBus(Vertx vertx, String serviceName, NatsSettings settings) throws Exception {
    this.settings = settings;
    ServiceIdentity identity = identity(serviceName);
    connection = new NatsConnection(settings, identity);
    connection.start(null);
    inbox = new ReplyInbox(connection);
    requester = new NatsRequester(connection, codec, settings, inbox);
    responder = new NatsResponder(connection, codec, vertx, identity);
    responder.started(null); // what Quarkus does after start-up
    streams = new StreamProvisioner(connection, settings);
  }

  @Override
  public void close() throws Exception {
    connection.connection().close();
  }

  static NatsSettings settings(boolean repliesOnCallerContext) {
    return settings(URL, null, null, repliesOnCallerContext);
  }

  /** Settings for {@code url} as NATS user {@code user} (null: no user). */
  static NatsSettings settings(String url, String user, String password, boolean repliesOnCallerContext) {
    return new NatsSettings() {
      public String url() { return url; }
      public Optional<String> user() { return Optional.ofNullable(user); }
      public Optional<String> password() { return Optional.ofNullable(password); }
      public Duration requestTimeout() { return Duration.ofSeconds(3); }
      public Duration connectTimeout() { return Duration.ofSeconds(2); }
      public boolean provisionStreams() { return user == null; } // a stack user may not, most of them
      public boolean repliesOnCallerContext() { return repliesOnCallerContext; }
    };
  }

  static ServiceIdentity identity(String name) {
    return new ServiceIdentity() {
      public String name() { return name; }
      public String version() { return "test"; }
      public boolean answersPing() { return true; }
    };
  }
}
