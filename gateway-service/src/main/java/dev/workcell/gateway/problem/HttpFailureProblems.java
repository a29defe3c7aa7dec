package dev.workcell.gateway.problem;

import dev.workcell.contracts.error.ErrorCode;
import io.quarkus.logging.Log;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.Future;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Failures the HTTP layer answers before any resource runs (an oversized body, an auth mechanism
 * refusing a token) would otherwise leave as a bare status; they become problems too.
 */
@ApplicationScoped
public class HttpFailureProblems {

  private final long maxBodyBytes;

  public HttpFailureProblems(
      @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize maxBodySize) {
    this.maxBodyBytes = maxBodySize.asLongValue();
  }

  void install(@Observes Router router) {
    // A declared Content-Length over the limit is refused before any byte of the body is read.
    router.route().order(Integer.MIN_VALUE).handler(this::refuseOversized);
    router.route().order(Integer.MIN_VALUE).failureHandler(this::answer);
  }

  private void refuseOversized(RoutingContext context) {
    String length = context.request().getHeader("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.trim()) > maxBodyBytes) {
          // The unread body would follow on this connection, so it closes once the answer is out.
          write(context, ErrorCode.PAYLOAD_TOO_LARGE).onComplete(ignored -> context.request().connection().close());
          return;
        }
      } catch (NumberFormatException e) {
        write(context, ErrorCode.INVALID_REQUEST);
        return;
      }
    }
    context.next();
  }

  private void answer(RoutingContext context) {
    if (context.response().headWritten() || context.response().ended()) {
      context.next();
      return;
    }
    ErrorCode code = switch (context.statusCode()) {
      case 401 -> ErrorCode.UNAUTHENTICATED;
      case 403 -> ErrorCode.FORBIDDEN;
      case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
      case 415 -> ErrorCode.UNSUPPORTED_MEDIA_TYPE;
      case 400 -> ErrorCode.INVALID_REQUEST;
      default -> null;
    };
    if (code == null) {
      if (context.failure() != null) {
        Log.debugf("http failure on %s: %s", context.normalizedPath(), context.failure().toString());
      }
      context.next();
      return;
    }
    write(context, code);
  }

  private static Future<Void> write(RoutingContext context, ErrorCode code) {
    Problem problem = new Problem("urn:workcell:problem:" + code.code(), code.title(), code.httpStatus(), code.title(),
        code.code(), context.normalizedPath());
    var response = context.response().setStatusCode(code.httpStatus()).putHeader("Content-Type", ProblemMapper.PROBLEM_JSON);
    if (code == ErrorCode.UNAUTHENTICATED) {
      response.putHeader("WWW-Authenticate", "Bearer");
    }
    return response.end(Json.encode(problem));
  }
}
