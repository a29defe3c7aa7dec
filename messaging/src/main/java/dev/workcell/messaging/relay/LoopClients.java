package dev.workcell.messaging.relay;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One pooled HTTP client per event loop. Why: Vert.x's pool hands an idle kept-alive connection to
 * whichever request asks next, and a connection's I/O stays on the event loop that opened it; a
 * request arriving on another loop then crosses threads twice per exchange (its writes queued to
 * the connection's loop, every response piece queued back), each crossing a thread wake-up. On a
 * busy machine those wake-ups were most of a relay hop's time (bench/preview-proxy: 10–16 context
 * switches per relayed 1 KB GET instead of 3). A client per loop keeps each pooled connection on
 * the loop of the requests that use it. The bound is per loop: {@code maxPoolSize} connections per
 * target on each event loop.
 */
final class LoopClients {

  private final Vertx vertx;
  private final HttpClientOptions options;
  private final Map<Thread, HttpClient> byLoop = new ConcurrentHashMap<>();
  private final HttpClient shared;

  LoopClients(Vertx vertx, HttpClientOptions options) {
    this.vertx = vertx;
    this.options = options;
    this.shared = vertx.createHttpClient(options);
  }

  /** The client of the calling event loop (off an event loop: one shared client). */
  HttpClient current() {
    if (!Context.isOnEventLoopThread()) {
      return shared;
    }
    return byLoop.computeIfAbsent(Thread.currentThread(), loop -> vertx.createHttpClient(options));
  }
}
