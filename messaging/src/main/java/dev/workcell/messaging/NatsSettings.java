package dev.workcell.messaging;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** How a service reaches NATS. */
@ConfigMapping(prefix = "workcell.nats")
public interface NatsSettings {

  /** Server URL(s), comma-separated. */
  @WithDefault("nats://127.0.0.1:4222")
  String url();

  /** This service's own NATS user (each service has one, with permissions on its subjects only). */
  Optional<String> user();

  /** Password of {@link #user()}. */
  Optional<String> password();

  /** Default deadline of a request/reply call. */
  @WithDefault("5s")
  Duration requestTimeout();

  /** How long one connection attempt may take before the client retries in the background. */
  @WithDefault("2s")
  Duration connectTimeout();

  /**
   * Whether a reply is decoded and continued on the Vert.x context that asked (its event loop or
   * worker) rather than on the connection's one reply thread, where a 2 MB decode (or the next
   * request's encode) holds up every other reply of the service. Off by default: a service that
   * blocks a worker awaiting a reply would wait for itself, and blocking continuations would block
   * an event loop instead of the reply thread.
   */
  @WithDefault("false")
  boolean repliesOnCallerContext();

  /** Whether this service creates/updates the JetStream streams of the contract at connect. */
  @WithDefault("true")
  boolean provisionStreams();
}
