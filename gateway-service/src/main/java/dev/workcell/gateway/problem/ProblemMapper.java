package dev.workcell.gateway.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.RetryLaterException;
import dev.workcell.contracts.error.WorkcellException;
import io.quarkus.logging.Log;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** The one place failures become {@code application/problem+json}. No stack trace leaves the gateway. */
public class ProblemMapper {

  public static final String PROBLEM_JSON = "application/problem+json";

  @ServerExceptionMapper
  public Response workcell(WorkcellException e, UriInfo uri) {
    if (e instanceof RetryLaterException later) {
      // Its own wait replaces the code's usual one: two Retry-After headers would leave the client guessing.
      return Response.fromResponse(respond(e.code(), e.getMessage(), uri))
          .header("Retry-After", null).header("Retry-After", later.retryAfterSeconds()).build();
    }
    return respond(e.code(), e.getMessage(), uri);
  }

  /** Missing, malformed, expired or foreign tokens: the same 401 problem for all, no hint which. */
  @ServerExceptionMapper({AuthenticationFailedException.class, UnauthorizedException.class})
  public Response unauthenticated(RuntimeException e, UriInfo uri) {
    return Response.fromResponse(respond(ErrorCode.UNAUTHENTICATED, "a valid bearer token is required", uri))
        .header("WWW-Authenticate", "Bearer").build();
  }

  @ServerExceptionMapper
  public Response forbidden(ForbiddenException e, UriInfo uri) {
    return respond(ErrorCode.FORBIDDEN, ErrorCode.FORBIDDEN.title(), uri);
  }

  /** Jackson's own mapper for a body of the wrong shape answers an empty 400; this one wins over it. */
  @ServerExceptionMapper(priority = 1)
  public Response wrongShape(MismatchedInputException e, UriInfo uri) {
    return respond(ErrorCode.MALFORMED_JSON, "the body does not have the shape this operation expects", uri);
  }

  @ServerExceptionMapper
  public Response malformedJson(JsonProcessingException e, UriInfo uri) {
    return respond(ErrorCode.MALFORMED_JSON, "the body is not valid JSON for this operation", uri);
  }

  @ServerExceptionMapper
  public Response web(WebApplicationException e, UriInfo uri) {
    int status = e.getResponse().getStatus();
    if (status == 400 && jsonCause(e)) {
      return respond(ErrorCode.MALFORMED_JSON, "the body is not valid JSON for this operation", uri);
    }
    ErrorCode code = switch (status) {
      case 400 -> ErrorCode.INVALID_REQUEST;
      case 401 -> ErrorCode.UNAUTHENTICATED;
      case 403 -> ErrorCode.FORBIDDEN;
      case 404 -> ErrorCode.NOT_FOUND;
      case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
      case 415 -> ErrorCode.UNSUPPORTED_MEDIA_TYPE;
      default -> status >= 500 ? ErrorCode.INTERNAL : ErrorCode.INVALID_REQUEST;
    };
    String detail = status >= 500 ? code.title() : e.getMessage();
    return Response.fromResponse(respond(code, detail, uri)).status(status).build();
  }

  private static boolean jsonCause(Throwable e) {
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof JsonProcessingException) {
        return true;
      }
    }
    return false;
  }

  @ServerExceptionMapper
  public Response unexpected(RuntimeException e, UriInfo uri) {
    Log.errorf(e, "unexpected failure on %s", uri.getPath());
    return respond(ErrorCode.INTERNAL, ErrorCode.INTERNAL.title(), uri);
  }

  static Response respond(ErrorCode code, String detail, UriInfo uri) {
    Problem problem = new Problem("urn:workcell:problem:" + code.code(), code.title(), code.httpStatus(), detail,
        code.code(), uri == null ? null : uri.getPath());
    Response.ResponseBuilder response = Response.status(code.httpStatus()).type(PROBLEM_JSON).entity(problem);
    retryAfter(code).ifPresent(seconds -> response.header("Retry-After", seconds));
    return response.build();
  }

  /** Admission and availability answers tell the client when trying again is worth it. */
  static java.util.Optional<Integer> retryAfter(ErrorCode code) {
    return switch (code) {
      case TOO_MANY_TASKS, TOO_MANY_RUNTIMES, RUNTIME_CAPACITY -> java.util.Optional.of(30);
      case SAFE_MODE -> java.util.Optional.of(10);
      case SERVICE_UNAVAILABLE -> java.util.Optional.of(5);
      case RATE_LIMITED -> java.util.Optional.of(1); // a byte budget refused it (here or in a service behind)
      default -> java.util.Optional.empty();
    };
  }
}
