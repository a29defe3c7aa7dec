package dev.workcell.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.MessageHeaders;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.ErrorReply;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Subject;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/**
 * Request/reply with a deadline. Every failure comes back as a {@link WorkcellException} with a
 * stable code: the handler's own error, {@code service_unavailable} when nobody listens, or
 * {@code upstream_timeout} when the deadline passes. When the instance that took a request dies
 * before answering, the caller hears {@code service_unavailable} within about two seconds, not at
 * the deadline ({@link ReplyInbox}, decision 0024).
 */
@ApplicationScoped
public class NatsRequester {

  private final NatsConnection nats;
  private final MessageCodec codec;
  private final NatsSettings settings;
  private final ReplyInbox inbox;

  public NatsRequester(NatsConnection nats, MessageCodec codec, NatsSettings settings, ReplyInbox inbox) {
    this.nats = nats;
    this.codec = codec;
    this.settings = settings;
    this.inbox = inbox;
  }

  /**
   * A reply and the liveness subject of the instance that answered it ({@code null} when the
   * responder sent no accept): what a caller watches ({@link InstanceWatch}) when the reply opened
   * something that lives on in that instance, such as a stream.
   */
  public record Answered<R>(R body, String instance) {}

  public <Q, R> Uni<R> request(Subject<Q, R> subject, Q body, Actor actor) {
    return request(subject, body, actor, settings.requestTimeout());
  }

  public <Q, R> Uni<R> request(Subject<Q, R> subject, Q body, Actor actor, Duration deadline) {
    return request(subject.name(), subject.server(), body, subject.reply(), actor, deadline);
  }

  /** A request whose bulk text is already UTF-8 bytes: it never becomes a Java string here. */
  public <Q, R> Uni<R> request(Subject<Q, R> subject, BulkMessage<Q> body, Actor actor, Duration deadline) {
    return request(subject.name(), subject.server(), body, subject.reply(), actor, deadline);
  }

  /** As {@link #request(Subject, Object, Actor, Duration)}, with the instance that answered. */
  public <Q, R> Uni<Answered<R>> requestAnswered(Subject<Q, R> subject, Q body, Actor actor, Duration deadline) {
    return exchange(subject.name(), subject.server(), body, subject.reply(), actor, deadline);
  }

  private <T> Uni<T> request(String subject, ServiceName server, Object body, Class<T> replyType, Actor actor,
      Duration deadline) {
    return exchange(subject, server, body, replyType, actor, deadline).map(Answered::body);
  }

  private <T> Uni<Answered<T>> exchange(String subject, ServiceName server, Object body, Class<T> replyType, Actor actor,
      Duration deadline) {
    return Uni.createFrom().deferred(() -> {
      if (!nats.connected()) {
        return Uni.createFrom().failure(
            new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "message bus is not connected"));
      }
      Headers headers = ActorHeaders.write(new Headers(), actor, TraceContext.outgoing());
      byte[] data = codec.encode(body);
      Context caller = Vertx.currentContext();
      ReplyInbox.Pending sent = inbox.send(subject, server, headers, data);
      Uni<Message> reply = Uni.createFrom().completionStage(sent.reply())
          .ifNoItem().after(deadline).failWith(() -> new WorkcellException(ErrorCode.UPSTREAM_TIMEOUT,
              "no answer on " + subject + " within " + deadline.toMillis() + " ms"))
          .onTermination().invoke(() -> inbox.forget(sent));
      if (settings.repliesOnCallerContext() && caller != null) {
        reply = reply.emitOn(command -> caller.runOnContext(ignored -> command.run()));
      }
      return reply
          .onFailure().transform(failure -> translate(subject, failure))
          .map(answer -> new Answered<>(decodeReply(subject, answer, replyType), sent.instance()));
    });
  }

  private <T> T decodeReply(String subject, Message reply, Class<T> replyType) {
    if (reply.isStatusMessage()) {
      // 503 is the server telling us nobody subscribes to the subject.
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "no service answers " + subject);
    }
    Headers headers = reply.getHeaders();
    if (headers != null && headers.getFirst(MessageHeaders.ERROR) != null) {
      throw codec.decode(reply.getData(), ErrorReply.class).toException();
    }
    return codec.decode(reply.getData(), replyType);
  }

  private static Throwable translate(String subject, Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    if (cause instanceof WorkcellException) {
      return cause;
    }
    String text = String.valueOf(cause.getMessage());
    if (text.contains("No Responders") || text.contains("503")) {
      return new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "no service answers " + subject, cause);
    }
    if (cause instanceof TimeoutException || cause instanceof CancellationException) {
      return new WorkcellException(ErrorCode.UPSTREAM_TIMEOUT, "no answer on " + subject + " before the deadline", cause);
    }
    return new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "request on " + subject + " failed: " + text, cause);
  }
}
