package dev.workcell.gateway.budget.rest;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.RetryLaterException;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.budget.config.BudgetSettings;
import dev.workcell.gateway.budget.service.BulkPacer;
import dev.workcell.gateway.budget.service.GatewayBudget;
import dev.workcell.gateway.ratelimit.service.CallerRateLimiter;
import dev.workcell.messaging.budget.ByteBudget;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Takes room in the gateway's budget for a request body before any of it is read (file saves,
 * Open Terminal writes and uploads, every other body of both APIs): {@link GatewayBudget#BODY_COPIES}
 * times its Content-Length, given back when the answer has been sent. A body that does not fit
 * waits up to {@code body-wait} (unread, so waiting costs no heap), then gets 429 {@code rate_limited}.
 * Before that, a large body waits its turn in the {@link BulkPacer}; both waits together are at most
 * {@code body-wait}. The turn is taken even when the budget then refuses the body.
 */
public class BodyBudgetFilter {

  private static final String TERMINAL_BASE = "/api/open-terminal/";
  private static final String TERMINAL_USER = "X-User-Id";
  private static final Duration FIRST_RETRY = Duration.ofMillis(20);
  private static final Duration LAST_RETRY = Duration.ofMillis(250);

  private final GatewayBudget budget;
  private final BulkPacer pacer;
  private final Duration wait;

  public BodyBudgetFilter(GatewayBudget budget, BulkPacer pacer, BudgetSettings settings) {
    this.budget = budget;
    this.pacer = pacer;
    this.wait = settings.bodyWait();
  }

  @ServerRequestFilter
  public Uni<Void> admit(RoutingContext context) {
    HttpMethod method = context.request().method();
    if (method != HttpMethod.POST && method != HttpMethod.PUT && method != HttpMethod.PATCH) {
      return Uni.createFrom().voidItem();
    }
    String path = context.normalizedPath();
    boolean terminal = path.startsWith(TERMINAL_BASE);
    if (!terminal && !path.startsWith("/api/work/")) {
      return Uni.createFrom().voidItem();
    }
    long length = declaredLength(context);
    long bytes = GatewayBudget.BODY_COPIES * length;
    if (bytes == 0) {
      return Uni.createFrom().voidItem();
    }
    Context vertx = Vertx.currentContext();
    long deadline = System.nanoTime() + wait.toNanos();
    return user(context, terminal)
        .call(user -> paced(user, length, deadline))
        .chain(user -> Uni.createFrom().item(() -> budget.take(user, bytes))
            .onFailure(BodyBudgetFilter::rateLimited).retry().withBackOff(FIRST_RETRY, LAST_RETRY)
            .expireIn(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))) // what the pace left of body-wait
            .onFailure(failure -> !(failure instanceof WorkcellException)).transform(failure ->
                new WorkcellException(ErrorCode.RATE_LIMITED, "the gateway holds too many request bodies; retry after "
                    + ByteBudget.RETRY_AFTER_SECONDS + " s")))
        .invoke(hold -> context.addEndHandler(ignored -> hold.close()))
        // Retries run on a timer thread; the request continues on its own event loop.
        .emitOn(command -> {
          if (vertx == null) {
            command.run();
          } else {
            vertx.runOnContext(ignored -> command.run());
          }
        })
        .replaceWithVoid();
  }

  /** Done when the user's pacer lets a body of {@code length} in; 429 with Retry-After when that is after {@code deadline}. */
  private Uni<Void> paced(String user, long length, long deadline) {
    long waitNanos = pacer.take(user, length);
    if (waitNanos == 0) {
      return Uni.createFrom().voidItem();
    }
    if (System.nanoTime() + waitNanos > deadline) {
      long seconds = CallerRateLimiter.retryAfterSeconds(waitNanos);
      return Uni.createFrom().failure(new RetryLaterException(ErrorCode.RATE_LIMITED,
          "large bodies arrive faster than the gateway's pace (this user's own, or all users' together); retry after "
              + seconds + " s", seconds));
    }
    // Vert.x timers count whole milliseconds (and refuse 0).
    return Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(waitNanos) + 1))
        .chain(() -> paced(user, length, deadline));
  }

  /** Content-Length, or for a chunked body the largest the gateway reads for a file. */
  private static long declaredLength(RoutingContext context) {
    String length = context.request().getHeader("Content-Length");
    if (length == null) {
      return context.request().getHeader("Transfer-Encoding") == null ? 0 : 2L * Limits.FILE_MAX_BYTES;
    }
    try {
      return Math.max(0, Long.parseLong(length.strip()));
    } catch (NumberFormatException e) {
      return 0; // the HTTP layer refuses it
    }
  }

  private static boolean rateLimited(Throwable failure) {
    return failure instanceof WorkcellException e && e.code() == ErrorCode.RATE_LIMITED;
  }

  /** The Work account a verified token names, or the Open Terminal user; the client address otherwise. */
  private static Uni<String> user(RoutingContext context, boolean terminal) {
    String address = "address:" + (context.request().remoteAddress() == null ? "unknown" : context.request().remoteAddress().hostAddress());
    if (terminal) {
      String user = context.request().getHeader(TERMINAL_USER);
      return Uni.createFrom().item(user == null || user.isBlank() ? address : GatewayBudget.terminalUser(user));
    }
    Uni<SecurityIdentity> deferred = context.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
    if (deferred == null || context.request().getHeader("Authorization") == null) {
      return Uni.createFrom().item(address);
    }
    return deferred
        .map(identity -> identity != null && identity.getPrincipal() instanceof JsonWebToken token && token.getSubject() != null
            ? GatewayBudget.account(token.getSubject()) : address)
        .onFailure().recoverWithItem(address);
  }
}
