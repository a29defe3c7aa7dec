package dev.workcell.gateway.run.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.gateway.run.config.RunStreamSettings;
import io.nats.client.Message;
import io.nats.client.MessageConsumer;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client's live stream of one run: the snapshot frame, then each event after the client's
 * position in per-run order, heartbeats while idle, and the end after {@code done}. A client that
 * stays more than the backlog limit behind for too long is cut off; it resumes with Last-Event-ID.
 */
final class RunEventStream {

  private final SseEventSink sink;
  private final Sse sse;
  private final ObjectMapper json;
  private final RunStreamSettings settings;
  private final Vertx vertx;
  private final HttpConnection connection;
  private final AtomicLong unflushedBytes = new AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Follower follower;
  private volatile long behindSinceMs;
  private volatile MessageConsumer consumer;
  private volatile int generation;
  private volatile boolean paused;
  private long lastSeq;
  private long heartbeatTimer = -1;
  private long lagTimer = -1;

  RunEventStream(SseEventSink sink, Sse sse, ObjectMapper json, RunStreamSettings settings, Vertx vertx,
      HttpConnection connection, Follower follower, long after) {
    this.follower = follower;
    this.sink = sink;
    this.connection = connection;
    this.sse = sse;
    this.json = json;
    this.settings = settings;
    this.vertx = vertx;
    this.lastSeq = after;
  }

  void sendSnapshot(RunSnapshot snapshot) {
    send(sse.newEventBuilder().name("snapshot").id(Long.toString(snapshot.after())).data(encode(snapshot)).build());
    heartbeatTimer = vertx.setPeriodic(settings.heartbeat().toMillis(), id -> heartbeat());
    lagTimer = vertx.setPeriodic(1_000, id -> checkLag());
  }

  /** Starts (or, after a pause, restarts) following the run's subject; blocking, so off the event loop. */
  interface Follower {
    MessageConsumer follow(io.nats.client.MessageHandler handler) throws Exception;
  }

  void follow() {
    int current = ++generation;
    Infrastructure.getDefaultWorkerPool().execute(() -> {
      try {
        MessageConsumer started = follower.follow(message -> onMessage(current, message));
        consumer = started;
        if (closed.get() || current != generation || paused) {
          stop(started);
        }
      } catch (Exception e) {
        Log.errorf("cannot follow run events: %s", e.toString());
        close();
      }
    });
  }

  /** Called by the ordered consumer, one message at a time, in stream order. */
  void onMessage(int from, Message message) {
    // A paused or replaced consumer may still deliver what it prefetched; the restart covers it.
    if (closed.get() || paused || from != generation) {
      return;
    }
    RunEvent event;
    try {
      event = json.readValue(message.getData(), RunEvent.class);
    } catch (Exception e) {
      // Events are written by agent-runner; a broken one is skipped, never passed on raw.
      Log.warnf("skipping undecodable run event on %s", message.getSubject());
      return;
    }
    boolean done = event.type() == RunEventType.DONE;
    synchronized (this) {
      if (event.seq() <= lastSeq) {
        if (done) {
          close(); // the run ended at or before the client's position: nothing more will come
        }
        return;
      }
      lastSeq = event.seq();
    }
    OutboundSseEvent frame = sse.newEventBuilder().name(event.type().wire()).id(Long.toString(event.seq())).data(encode(event)).build();
    if (done) {
      send(frame).whenComplete((ignored, failure) -> close());
    } else {
      send(frame);
      if (unflushedBytes.get() > settings.maxBacklogBytes()) {
        // Stop pulling from JetStream while the client drains; nothing more piles up in memory.
        paused = true;
        stop(consumer);
      }
    }
  }

  void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (heartbeatTimer >= 0) {
      vertx.cancelTimer(heartbeatTimer);
    }
    if (lagTimer >= 0) {
      vertx.cancelTimer(lagTimer);
    }
    stopConsumer();
    try {
      sink.close();
    } catch (RuntimeException e) {
      Log.debugf("closing sse sink: %s", e.toString());
    }
  }

  private void heartbeat() {
    if (!closed.get()) {
      send(sse.newEventBuilder().comment("heartbeat").build());
    }
  }

  private void checkLag() {
    if (sink.isClosed()) {
      close();
      return;
    }
    long now = System.currentTimeMillis();
    if (unflushedBytes.get() <= settings.maxBacklogBytes()) {
      behindSinceMs = 0;
      if (paused) {
        paused = false;
        follow(); // a new ordered consumer; events up to lastSeq are skipped
      }
    } else if (behindSinceMs == 0) {
      behindSinceMs = now;
    } else if (now - behindSinceMs >= settings.maxLag().toMillis()) {
      Log.infof("disconnecting a run stream client %d bytes behind", unflushedBytes.get());
      // Ending the response (or a graceful close) would still flush the backlog; an abort drops it.
      if (connection instanceof ConnectionBase base) {
        base.channel().close();
      } else {
        connection.close();
      }
      close();
    }
  }

  private synchronized java.util.concurrent.CompletionStage<?> send(OutboundSseEvent frame) {
    long bytes = size(frame);
    unflushedBytes.addAndGet(bytes);
    return sink.send(frame).whenComplete((ignored, failure) -> {
      unflushedBytes.addAndGet(-bytes);
      if (failure != null) {
        close(); // the client went away
      }
    });
  }

  private void stopConsumer() {
    stop(consumer);
  }

  private static void stop(MessageConsumer current) {
    if (current != null) {
      try {
        current.stop();
        current.close();
      } catch (Exception e) {
        Log.debugf("stopping run event consumer: %s", e.toString());
      }
    }
  }

  private String encode(Object value) {
    try {
      return json.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName(), e);
    }
  }

  private static long size(OutboundSseEvent frame) {
    Object data = frame.getData();
    return 64 + (data instanceof String text ? text.getBytes(StandardCharsets.UTF_8).length : 0);
  }
}
