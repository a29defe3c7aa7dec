package dev.workcell.messaging.stream;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.messaging.InstanceWatch;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import io.nats.client.Dispatcher;
import io.nats.client.Subscription;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The calling end of streams another service pushes, one output subject per stream (sandbox-service's
 * terminals and port streams, decisions 0017 and 0020): the caller picks the stream's id, this
 * subscribes to its output before asking for the open (so the first chunk is not missed), hands the
 * decoded chunks on in arrival order, and watches the instance that opened it: when that instance
 * is gone (killed, crashed) the stream's {@code lost} handler runs within about two seconds, instead
 * of the stream falling silent forever ({@link InstanceWatch}, decision 0024).
 *
 * @param <C> the output chunk's type
 */
public final class PushedStreams<C> {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final String kind;
  private final Class<C> chunkType;
  private final Function<String, String> outputSubject;
  private final NatsConnection nats;
  private final NatsRequester requester;
  private final MessageCodec codec;
  private final InstanceWatch watch;
  private final Map<String, Open> open = new ConcurrentHashMap<>();
  private volatile Dispatcher dispatcher;

  /** {@code kind} names the streams in logs; {@code outputSubject} gives a stream's output subject from its id. */
  public PushedStreams(String kind, Class<C> chunkType, Function<String, String> outputSubject, NatsConnection nats,
      NatsRequester requester, MessageCodec codec, InstanceWatch watch) {
    this.kind = kind;
    this.chunkType = chunkType;
    this.outputSubject = outputSubject;
    this.nats = nats;
    this.requester = requester;
    this.codec = codec;
    this.watch = watch;
  }

  /** 128 random bits, a valid subject token: a stream's only handle, so it must not be guessable. */
  public static String newId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * Subscribes {@code chunks} (called on a NATS thread, in arrival order) to stream {@code id}'s
   * output, then sends the open request. Once it is answered, {@code lost} runs (once, on a NATS
   * thread) if the answering instance goes away while the stream is open. On a failure the stream
   * stays registered: the caller decides whether to close it, then {@link #forget}s it.
   */
  public <Q, R> Uni<R> open(String id, Consumer<C> chunks, Runnable lost, Subject<Q, R> opening, Q body, Actor actor,
      Duration deadline) {
    Open stream = new Open(dispatcher().subscribe(outputSubject.apply(id), message -> {
      C chunk;
      try {
        chunk = codec.decode(message.getData(), chunkType);
      } catch (RuntimeException e) {
        Log.warnf("%s %s: unreadable output chunk: %s", kind, id, e.getMessage());
        return;
      }
      chunks.accept(chunk);
    }));
    open.put(id, stream);
    return requester.requestAnswered(opening, body, actor, deadline).map(answer -> {
      if (answer.instance() != null) {
        stream.watch(watch, answer.instance(), () -> {
          if (open.get(id) == stream) {
            Log.infof("%s %s: its instance is gone (nobody listens on %s)", kind, id, answer.instance());
            lost.run();
          }
        });
      }
      return answer.body();
    });
  }

  /** Stops listening to stream {@code id}; false when it was not open (idempotent). */
  public boolean forget(String id) {
    Open gone = open.remove(id);
    if (gone == null) {
      return false;
    }
    gone.stop();
    dispatcher.unsubscribe(gone.subscription);
    return true;
  }

  /** The ids of the open streams (a live view): for keepalives and shutdown. */
  public Set<String> ids() {
    return open.keySet();
  }

  /** Publishes a message without reply (credit, keepalive); dropped while the bus is away, as a lost ack only slows. */
  public void publish(String subject, Object body) {
    if (nats.connected()) {
      nats.connection().publish(subject, codec.encode(body));
    }
  }

  private synchronized Dispatcher dispatcher() {
    if (dispatcher == null) {
      dispatcher = nats.connection().createDispatcher();
    }
    return dispatcher;
  }

  private static final class Open {
    final Subscription subscription;
    private Runnable unwatch;
    private boolean stopped;

    Open(Subscription subscription) {
      this.subscription = subscription;
    }

    synchronized void watch(InstanceWatch watch, String instance, Runnable lost) {
      if (!stopped) {
        unwatch = watch.watch(instance, lost);
      }
    }

    synchronized void stop() {
      stopped = true;
      if (unwatch != null) {
        unwatch.run();
      }
    }
  }
}
