package dev.workcell.gateway.ratelimit.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.RetryLaterException;
import dev.workcell.gateway.ratelimit.service.CallerRateLimiter;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Admission by request rate, before any resource runs: a verified token's account is the key,
 * otherwise the client address (so guessing tokens is limited too). An SSE stream is one request,
 * so it counts once, at connect.
 */
public class RateLimitFilter {

  private final CallerRateLimiter limiter;

  public RateLimitFilter(CallerRateLimiter limiter) {
    this.limiter = limiter;
  }

  @ServerRequestFilter(preMatching = true)
  public Uni<Void> admit(RoutingContext context) {
    String path = context.normalizedPath();
    if (!path.startsWith("/api/work/") && !path.equals("/api/work") && !path.startsWith("/api/auth/") && !path.equals("/api/auth")) {
      return Uni.createFrom().voidItem();
    }
    return caller(context).map(caller -> {
      long retryAfter = limiter.admit(caller);
      if (retryAfter > 0) {
        throw new RetryLaterException(ErrorCode.RATE_LIMITED, "too many requests; retry after " + retryAfter + " s", retryAfter);
      }
      return null;
    });
  }

  /** The token is verified here (once per request; the security check later reuses the result). */
  private static Uni<String> caller(RoutingContext context) {
    String address = "address:" + (context.request().remoteAddress() == null ? "unknown" : context.request().remoteAddress().hostAddress());
    Uni<SecurityIdentity> deferred = context.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
    if (deferred == null || context.request().getHeader("Authorization") == null) {
      return Uni.createFrom().item(address);
    }
    return deferred
        .map(identity -> identity == null || identity.isAnonymous() ? address : "account:" + identity.getPrincipal().getName())
        .onFailure().recoverWithItem(address);
  }
}
