package dev.workcell.messaging;

import dev.workcell.contracts.MessageHeaders;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.ErrorReply;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.messaging.budget.Held;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.quarkus.logging.Log;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves request subjects in the service's queue group. Each request runs on a fresh Vert.x
 * duplicated context (so reactive clients work inside handlers) and always gets an answer: the
 * handler's result, or an {@link ErrorReply} with a stable code — never silence.
 */
@ApplicationScoped
public class NatsResponder {

  private final NatsConnection nats;
  private final MessageCodec codec;
  private final Vertx vertx;
  private final ServiceIdentity identity;
  private final Map<String, Registration<?, ?>> registrations = new ConcurrentHashMap<>();
  private volatile Dispatcher dispatcher;
  private volatile Connection dispatcherConnection;
  private volatile Context[] eventLoops;
  private final AtomicInteger nextLoop = new AtomicInteger();

  public NatsResponder(NatsConnection nats, MessageCodec codec, Vertx vertx, ServiceIdentity identity) {
    this.nats = nats;
    this.codec = codec;
    this.vertx = vertx;
    this.identity = identity;
    nats.whenConnected(this::subscribeAll);
  }

  /** Serves {@code subject} in this service's queue group. */
  public <T, R> void serve(String subject, Class<T> requestType, RequestHandler<T, R> handler) {
    serve(subject, identity.service(), requestType, handler);
  }

  public <T, R> void serve(String subject, ServiceName group, Class<T> requestType, RequestHandler<T, R> handler) {
    Registration<T, R> registration = new Registration<>(subject, Subjects.queueGroup(group), requestType, handler);
    if (registrations.putIfAbsent(subject, registration) != null) {
      throw new IllegalStateException("subject already served: " + subject);
    }
    if (nats.connected()) {
      subscribe(dispatcher(nats.connection()), registration);
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
    Dispatcher current = dispatcher(connection);
    for (Registration<?, ?> registration : registrations.values()) {
      subscribe(current, registration);
    }
  }

  private void subscribe(Dispatcher current, Registration<?, ?> registration) {
    // jnats restores subscriptions after a reconnect; subscribing twice would answer twice.
    if (!registration.subscribedOn(current)) {
      current.subscribe(registration.subject, registration.queueGroup, message -> dispatch(registration, message));
    }
  }

  private <T, R> void dispatch(Registration<T, R> registration, Message message) {
    Context context = VertxContext.createNewDuplicatedContext(nextEventLoop());
    // A fresh context per request, isolated like an HTTP request's, so reactive sessions never leak across.
    VertxContextSafetyToggle.setContextSafe(context, true);
    context.runOnContext(ignored -> {
      Uni<R> result;
      try {
        Envelope<T> envelope = open(registration, message);
        TraceContext.set(envelope.traceparent());
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
    });
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

  private <T, R> Envelope<T> open(Registration<T, R> registration, Message message) {
    var actor = ActorHeaders.read(message.getHeaders())
        .orElseThrow(() -> new WorkcellException(ErrorCode.UNAUTHENTICATED, "message carries no acting account"));
    T body = codec.decode(message.getData(), registration.requestType);
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

  private static final class Registration<T, R> {
    final String subject;
    final String queueGroup;
    final Class<T> requestType;
    final RequestHandler<T, R> handler;
    private Dispatcher subscribedOn;

    Registration(String subject, String queueGroup, Class<T> requestType, RequestHandler<T, R> handler) {
      this.subject = subject;
      this.queueGroup = queueGroup;
      this.requestType = requestType;
      this.handler = handler;
    }

    synchronized boolean subscribedOn(Dispatcher dispatcher) {
      boolean already = subscribedOn == dispatcher;
      subscribedOn = dispatcher;
      return already;
    }
  }
}
