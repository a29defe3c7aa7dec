package dev.workcell.messaging;

import dev.workcell.contracts.MessageHeaders;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The inbox this service's requests are answered on, and the watch on the instances that took them
 * (decision 0024). Each request asks for an accept, a first empty reply naming the liveness subject
 * of the instance that took it. While a request waits, that subject is asked once a second; when
 * NATS answers that nobody listens there (the instance's connection is gone: it was killed or
 * crashed), the request fails at once with {@code service_unavailable}, retryable, instead of at its
 * deadline. A request without an accept after {@link #ACCEPT_WAIT}, on a subject whose responders do
 * send accepts, fails the same way when no instance of the service is left at all. A probe that is
 * only slow proves nothing: the deadline stands.
 */
@ApplicationScoped
public class ReplyInbox {

  /** How often waiting requests' instances are asked, and how old a request is before its first probe. */
  static final Duration PROBE_EVERY = Duration.ofSeconds(1);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
  /** Longer than an accept takes on a loaded machine: the responder sends it before any work. */
  static final Duration ACCEPT_WAIT = Duration.ofSeconds(3);

  private final NatsConnection nats;
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();
  /** Subjects whose responders sent an accept at least once (a responder may predate decision 0024). */
  private final Set<String> accepting = ConcurrentHashMap.newKeySet();
  private final LivenessProbe probe;
  private final AtomicLong next = new AtomicLong();
  private volatile String inbox;
  private volatile Connection subscribedOn;
  private final LivenessProbe.Tick watch = new LivenessProbe.Tick(PROBE_EVERY, "nats-reply-watch", this::probeWaiting);

  public ReplyInbox(NatsConnection nats) {
    this.nats = nats;
    this.probe = new LivenessProbe(nats, PROBE_TIMEOUT);
    nats.whenConnected(this::subscribe);
  }

  /** A request on its way: its reply (or a failure) completes {@link #reply()}. */
  static final class Pending {
    private final CompletableFuture<Message> reply = new CompletableFuture<>();
    private final String replyTo;
    private final String subject;
    private final ServiceName server;
    private final long sentAt = System.nanoTime();
    /** The liveness subject of the instance that accepted the request; null until then. */
    private volatile String instance;

    Pending(String replyTo, String subject, ServiceName server) {
      this.replyTo = replyTo;
      this.subject = subject;
      this.server = server;
    }

    CompletableFuture<Message> reply() {
      return reply;
    }

    /** The liveness subject of the instance that accepted the request, or null (no accept). */
    String instance() {
      return instance;
    }
  }

  /** Publishes a request with a reply inbox of its own and an ask for an accept. */
  Pending send(String subject, ServiceName server, Headers headers, byte[] data) {
    Connection connection = nats.connection();
    if (subscribedOn != connection) {
      subscribe(connection);
    }
    Pending request = new Pending(inbox + next.incrementAndGet(), subject, server);
    headers.put(MessageHeaders.ACCEPT, "1");
    pending.put(request.replyTo, request);
    watch.start();
    try {
      connection.publish(NatsMessage.builder().subject(subject).replyTo(request.replyTo).headers(headers).data(data).build());
      connection.flushBuffer(); // as jnats' own request does: a request is not left in the write buffer
    } catch (IOException e) {
      Log.debugf("flush after a request on %s: %s", subject, e.toString());
    } catch (RuntimeException e) {
      pending.remove(request.replyTo);
      throw e;
    }
    return request;
  }

  /** The caller stopped waiting (deadline, cancel, or the reply came): a late reply is dropped. */
  void forget(Pending request) {
    pending.remove(request.replyTo, request);
  }

  private synchronized void subscribe(Connection connection) {
    // jnats restores its subscriptions after a reconnect; a second one would be a second inbox.
    if (subscribedOn == connection) {
      return;
    }
    String base = connection.createInbox() + ".";
    Dispatcher dispatcher = connection.createDispatcher(this::deliver);
    dispatcher.subscribe(base + "*");
    inbox = base;
    subscribedOn = connection;
  }

  private void deliver(Message message) {
    Pending request = pending.get(message.getSubject());
    if (request == null) {
      return;
    }
    Headers headers = message.getHeaders();
    String accepted = message.isStatusMessage() || headers == null ? null : headers.getFirst(MessageHeaders.ACCEPTED);
    if (accepted != null) {
      request.instance = accepted;
      accepting.add(request.subject);
      return;
    }
    if (pending.remove(request.replyTo, request)) {
      request.reply.complete(message);
    }
  }

  /** One probe per instance that holds a request older than a probe interval, and per service that left one unaccepted. */
  private void probeWaiting() {
    try {
      long now = System.nanoTime();
      Map<String, List<Pending>> byInstance = new HashMap<>();
      Map<ServiceName, List<Pending>> unaccepted = new EnumMap<>(ServiceName.class);
      for (Pending request : pending.values()) {
        long age = now - request.sentAt;
        String instance = request.instance;
        if (instance != null && age >= PROBE_EVERY.toNanos()) {
          byInstance.computeIfAbsent(instance, key -> new ArrayList<>()).add(request);
        } else if (instance == null && age >= ACCEPT_WAIT.toNanos() && request.server != null
            && accepting.contains(request.subject)) {
          unaccepted.computeIfAbsent(request.server, key -> new ArrayList<>()).add(request);
        }
      }
      byInstance.forEach((instance, waiting) -> probe(instance, waiting));
      unaccepted.forEach((server, waiting) -> probe(Subjects.alive(server, Subjects.ANY_INSTANCE), waiting));
    } catch (RuntimeException e) {
      Log.warnf(e, "probing the instances of waiting requests failed");
    }
  }

  private void probe(String alive, List<Pending> waiting) {
    probe.ask(alive, () -> {
      int failed = 0;
      for (Pending request : waiting) {
        // An unaccepted request that got its accept meanwhile is the accepting instance's to answer.
        boolean stillOurs = alive.equals(request.instance) || request.instance == null;
        if (stillOurs && pending.remove(request.replyTo, request)) {
          request.reply.completeExceptionally(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE,
              "the " + (request.server == null ? "service" : request.server.id()) + " instance that took the request on "
                  + request.subject + " stopped before answering"));
          failed++;
        }
      }
      if (failed > 0) {
        Log.infof("%d request(s) failed as service_unavailable: nobody listens on %s any more", failed, alive);
      }
    });
  }
}
