package dev.workcell.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Optional;

/** The messaging beans wired by hand against the real test nats-server (started by bin/workcell test). */
final class TestBus implements AutoCloseable {

  static final String URL = Optional.ofNullable(System.getenv("WORKCELL_TEST_NATS_URL")).orElse("nats://127.0.0.1:14223");

  final NatsSettings settings;
  final NatsConnection connection;
  final MessageCodec codec = new MessageCodec(new ObjectMapper());
  final NatsRequester requester;
  final NatsResponder responder;
  final StreamProvisioner streams;

  TestBus(Vertx vertx, String serviceName) throws Exception {
    settings = settings();
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

  private static NatsSettings settings() {
    return new NatsSettings() {
      public String url() { return URL; }
      public Optional<String> user() { return Optional.empty(); }
      public Optional<String> password() { return Optional.empty(); }
      public Duration requestTimeout() { return Duration.ofSeconds(3); }
      public Duration connectTimeout() { return Duration.ofSeconds(2); }
      public boolean provisionStreams() { return true; }
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
