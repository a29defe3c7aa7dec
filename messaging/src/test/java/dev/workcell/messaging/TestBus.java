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
  final NatsRequester requester;
  final NatsResponder responder;
  final StreamProvisioner streams;

  TestBus(Vertx vertx, String serviceName) throws Exception {
    settings = settings(false);
    ServiceIdentity identity = identity(serviceName);
    connection = new NatsConnection(settings, identity);
    connection.start(null);
    requester = new NatsRequester(connection, codec, settings);
    responder = new NatsResponder(connection, codec, vertx, identity);
    streams = new StreamProvisioner(connection, settings);
  }

  @Override
  public void close() throws Exception {
    connection.connection().close();
  }

  static NatsSettings settings(boolean repliesOnCallerContext) {
    return new NatsSettings() {
      public String url() { return URL; }
      public Optional<String> user() { return Optional.empty(); }
      public Optional<String> password() { return Optional.empty(); }
      public Duration requestTimeout() { return Duration.ofSeconds(3); }
      public Duration connectTimeout() { return Duration.ofSeconds(2); }
      public boolean provisionStreams() { return true; }
      public boolean repliesOnCallerContext() { return repliesOnCallerContext; }
    };
  }

  private static ServiceIdentity identity(String name) {
    return new ServiceIdentity() {
      public String name() { return name; }
      public String version() { return "test"; }
      public boolean answersPing() { return true; }
    };
  }
}
