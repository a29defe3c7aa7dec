package dev.workcell.messaging;

import dev.workcell.contracts.MessageHeaders;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.ErrorReply;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.messaging.budget.Held;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.NUID;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.quarkus.logging.Log;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Serves request subjects in the service's queue group. Each request runs on a fresh Vert.x
 * duplicated context (so reactive clients work inside handlers) and always gets an answer: the
 * handler's result, or an {@link ErrorReply} with a stable code — never silence.
 *
 * <p>A request that asks for it ({@link MessageHeaders#ACCEPT}) is first accepted: an empty reply
 * naming this instance's liveness subject, which the instance answers for as long as its connection
 * lives, so a caller learns of its death at once instead of at the deadline (decision 0024).
 */
@ApplicationScoped
public class NatsResponder {

  private final NatsConnection nats;
  private final MessageCodec codec;
  private final Vertx vertx;
  private final ServiceIdentity identity;
  private final Map<String, Registration<?>> registrations = new ConcurrentHashMap<>();
  /** This process among the service's replicas: the last token of its liveness subjects. */
  private final String instance = NUID.nextGlobal();
  /** The services whose subjects this instance serves. */
  private final Set<ServiceName> served = ConcurrentHashMap.newKeySet();
  /** The dispatcher each served service's liveness subjects are subscribed on. */
  private final Map<ServiceName, Dispatcher> aliveOn = new ConcurrentHashMap<>();
  private volatile Dispatcher dispatcher;
  private volatile Connection dispatcherConnection;
  private volatile Context[] eventLoops;
  private final AtomicInteger nextLoop = new AtomicInteger();
  /** Start-up work still running, the start-up itself included: nothing is subscribed before it is done. */
  private final AtomicInteger startHolds = new AtomicInteger(1);

  public NatsResponder(NatsConnection nats, MessageCodec codec, Vertx vertx, ServiceIdentity identity) {
    this.nats = nats;
    this.codec = codec;
    this.vertx = vertx;
    this.identity = identity;
    nats.whenConnected(this::subscribeAll);
  }

  /**
   * Serves {@code subject} in the queue group of the service the subject names as its server (test
   * fixtures play other services this way; on the stack, NATS lets each user subscribe only to its own).
   */
  public <T, R> void serve(Subject<T, R> subject, RequestHandler<T, ? extends R> handler) {
    register(subject, handler, false);
  }

  /**
   * Like {@link #serve}, but the handler runs on the NATS dispatcher thread, not on an event loop:
   * for a handler that only hands its request on without blocking and needs no Vert.x context (a
   * terminal's keystrokes, written to celld's socket on the caller's thread). Saves a thread hop
   * per request on a latency-bound path; such a handler must never block, since it holds up every
   * subject this service serves. No traceparent is carried into it.
   */
  public <T, R> void serveOnDispatcher(Subject<T, R> subject, RequestHandler<T, ? extends R> handler) {
    register(subject, handler, true);
  }

  /** Like {@link #serve}, for a handler whose reply holds room in a byte budget until it is sent. */
  public <T, R> void serveHeld(Subject<T, R> subject, RequestHandler<T, Held<R>> handler) {
    register(subject, handler, false);
  }

  /**
   * Like {@link #serve}, for a handler that passes the request's {@link dev.workcell.contracts.Bulk}
   * text or bytes on as they came ({@link MessageCodec#decodeBulk}): a 2 MB text written into a
   * sandbox never becomes a Java string.
   */
  public <T, R> void serveBulk(Subject<T, R> subject, RequestHandler<BulkMessage<T>, ? extends R> handler) {
    register(subject, data -> codec.decodeBulk(data, subject.request()), handler, false);
  }

  /**
   * Holds this service's subjects back until the returned action runs: for start-up work without
   * which the service would take requests it cannot answer within their deadline (a cold database
   * pool). Meanwhile a caller hears at once that nobody serves the subject (503, retryable); under
   * load a task-service that subscribed first answered its first requests 20 s later, after their
   * 5 s deadline (504).
   */
  public Runnable holdStart() {
    startHolds.incrementAndGet();
    AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (released.compareAndSet(false, true)) {
        releaseStart();
      }
    };
  }

  /** After every other start-up observer: they register the handlers and take their holds. */
  void started(@Observes @Priority(Integer.MAX_VALUE) StartupEvent event) {
    releaseStart();
  }

  /** Whether the subjects are subscribed (or will be, on connecting): start-up is done. */
  public boolean serving() {
    return startHolds.get() <= 0;
  }

  private void releaseStart() {
    if (startHolds.decrementAndGet() == 0 && nats.connected()) {
      subscribeAll(nats.connection());
    }
  }

  private <T> void register(Subject<T, ?> subject, RequestHandler<T, ?> handler, boolean onDispatcher) {
    register(subject, data -> codec.decode(data, subject.request()), handler, onDispatcher);
  }

  private <T> void register(Subject<?, ?> subject, Function<byte[], T> decode, RequestHandler<T, ?> handler, boolean onDispatcher) {
    Registration<T> registration = new Registration<>(subject.name(), subject.server(), decode, handler, onDispatcher);
    if (registrations.putIfAbsent(subject.name(), registration) != null) {
      throw new IllegalStateException("subject already served: " + subject);
    }
    served.add(subject.server());
    if (serving() && nats.connected()) {
      Dispatcher current = dispatcher(nats.connection());
      subscribeAlive(current, subject.server());
      subscribe(current, registration);
    }
  }

  private synchronized Dispatcher dispatcher(Connection connection) {
    if (dispatcher == null || dispatcherConnection != connection) {
      dispatcher = connection.createDispatcher();
      dispatcherConnection = connection;
    }
    return dispatcher;
  }

  private synchronized void subscribeAll(Connection connection) {
    if (!serving()) {
      return;
    }
    Dispatcher current = dispatcher(connection);
    for (ServiceName service : served) {
      subscribeAlive(current, service);
    }
    for (Registration<?> registration : registrations.values()) {
      subscribe(current, registration);
    }
  }

  /**
   * This instance's liveness subject of {@code service}, and the service's "any instance" one in its
   * queue group. Answered on the dispatcher's thread, before any handler's work, with an empty message.
   */
  private synchronized void subscribeAlive(Dispatcher current, ServiceName service) {
    if (aliveOn.put(service, current) == current) {
      return; // jnats restores subscriptions after a reconnect
    }
    current.subscribe(Subjects.alive(service, instance), this::answerAlive);
    current.subscribe(Subjects.alive(service, Subjects.ANY_INSTANCE), Subjects.queueGroup(service), this::answerAlive);
  }

  private void answerAlive(Message probe) {
    if (probe.getReplyTo() != null && nats.connected()) {
      nats.connection().publish(probe.getReplyTo(), new byte[0]);
    }
  }

  /** The accept a caller asked for, sent before the request is handed to a handler. */
  private void accept(Registration<?> registration, Message message) {
    Headers asked = message.getHeaders();
    if (message.getReplyTo() == null || asked == null || asked.getFirst(MessageHeaders.ACCEPT) == null
        || !nats.connected()) {
      return;
    }
    Headers headers = new Headers().put(MessageHeaders.ACCEPTED, Subjects.alive(registration.server, instance));
    nats.connection().publish(NatsMessage.builder().subject(message.getReplyTo()).headers(headers).build());
  }

  private void subscribe(Dispatcher current, Registration<?> registration) {
    // jnats restores subscriptions after a reconnect; subscribing twice would answer twice.
    if (!registration.subscribedOn(current)) {
      current.subscribe(registration.subject, registration.queueGroup, message -> dispatch(registration, message));
    }
  }

  private <T> void dispatch(Registration<T> registration, Message message) {
    accept(registration, message);
    if (registration.onDispatcher) {
      handle(registration, message, false);
      return;
    }
    Context context = VertxContext.createNewDuplicatedContext(nextEventLoop());
    // A fresh context per request, isolated like an HTTP request's, so reactive sessions never leak across.
    VertxContextSafetyToggle.setContextSafe(context, true);
    context.runOnContext(ignored -> handle(registration, message, true));
  }

  private <T> void handle(Registration<T> registration, Message message, boolean onContext) {
    Uni<?> result;
    try {
      Envelope<T> envelope = open(registration, message);
      if (onContext) {
        TraceContext.set(envelope.traceparent());
      }
      result = registration.handler.handle(envelope);
      if (result == null) {
        result = Uni.createFrom().nullItem();
      }
    } catch (RuntimeException e) {
      result = Uni.createFrom().failure(e);
    }
    result.subscribe().with(
        value -> replyWith(message, value),
        failure -> replyError(registration.subject, message, failure));
  }

  /**
   * The event loops in turn. From the jnats dispatcher thread getOrCreateContext() is sticky, so
   * every request of the service would run on one event loop while the others idle.
   */
  private Context nextEventLoop() {
    Context[] contexts = eventLoops;
    if (contexts == null) {
      if (!(vertx instanceof VertxInternal internal)) {
        return vertx.getOrCreateContext();
      }
      int loops = 0;
      for (var ignored : internal.getEventLoopGroup()) {
        loops++;
      }
      contexts = new Context[Math.max(1, loops)];
      for (int i = 0; i < contexts.length; i++) {
        contexts[i] = internal.createEventLoopContext(); // the group's next loop, round robin
      }
      eventLoops = contexts;
    }
    return contexts[Math.floorMod(nextLoop.getAndIncrement(), contexts.length)];
  }

  private <T> Envelope<T> open(Registration<T> registration, Message message) {
    var actor = ActorHeaders.read(message.getHeaders())
        .orElseThrow(() -> new WorkcellException(ErrorCode.UNAUTHENTICATED, "message carries no acting account"));
    T body = registration.decode.apply(message.getData());
    return new Envelope<>(message.getSubject(), body, actor, ActorHeaders.traceparent(message.getHeaders()));
  }

  /** A {@link Held} reply gives its room in the budget back once its bytes are sent (or failed to be). */
  private void replyWith(Message message, Object value) {
    if (value instanceof Held<?> held) {
      try {
        reply(message, codec.encode(held.value()), null);
      } finally {
        held.hold().close();
      }
    } else {
      reply(message, codec.encode(value), null);
    }
  }

  private void replyError(String subject, Message message, Throwable failure) {
    WorkcellException error;
    if (failure instanceof WorkcellException known) {
      error = known;
    } else {
      Log.errorf(failure, "handler of %s failed", subject);
      error = new WorkcellException(ErrorCode.INTERNAL, "internal error in " + identity.name());
    }
    reply(message, codec.encode(ErrorReply.of(error)), error.code().code());
  }

  private void reply(Message request, byte[] body, String errorCode) {
    if (request.getReplyTo() == null || !nats.connected()) {
      return;
    }
    Headers headers = new Headers();
    String trace = ActorHeaders.traceparent(request.getHeaders());
    if (trace != null) {
      headers.put(MessageHeaders.TRACEPARENT, trace);
    }
    if (errorCode != null) {
      headers.put(MessageHeaders.ERROR, errorCode);
    }
    nats.connection().publish(NatsMessage.builder().subject(request.getReplyTo()).headers(headers).data(body).build());
  }

  private static final class Registration<T> {
    final String subject;
    final ServiceName server;
    final String queueGroup;
    final Function<byte[], T> decode;
    final RequestHandler<T, ?> handler;
    final boolean onDispatcher;
    private Dispatcher subscribedOn;

    Registration(String subject, ServiceName server, Function<byte[], T> decode, RequestHandler<T, ?> handler, boolean onDispatcher) {
      this.subject = subject;
      this.server = server;
      this.queueGroup = Subjects.queueGroup(server);
      this.decode = decode;
      this.handler = handler;
      this.onDispatcher = onDispatcher;
    }

    synchronized boolean subscribedOn(Dispatcher dispatcher) {
      boolean already = subscribedOn == dispatcher;
      subscribedOn = dispatcher;
      return already;
    }
  }
}
