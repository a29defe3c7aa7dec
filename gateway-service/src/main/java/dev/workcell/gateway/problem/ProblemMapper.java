package dev.workcell.gateway.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import io.quarkus.logging.Log;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** The one place failures become {@code application/problem+json}. No stack trace leaves the gateway. */
public class ProblemMapper {

  public static final String PROBLEM_JSON = "application/problem+json";

  @ServerExceptionMapper
  public Response workcell(WorkcellException e, UriInfo uri) {
    return respond(e.code(), e.getMessage(), uri);
  }

  @ServerExceptionMapper
  public Response malformedJson(JsonProcessingException e, UriInfo uri) {
    return respond(ErrorCode.MALFORMED_JSON, "the body is not valid JSON for this operation", uri);
  }

  @ServerExceptionMapper
  public Response web(WebApplicationException e, UriInfo uri) {
    int status = e.getResponse().getStatus();
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

  @ServerExceptionMapper
  public Response unexpected(RuntimeException e, UriInfo uri) {
    Log.errorf(e, "unexpected failure on %s", uri.getPath());
    return respond(ErrorCode.INTERNAL, ErrorCode.INTERNAL.title(), uri);
  }

  static Response respond(ErrorCode code, String detail, UriInfo uri) {
    Problem problem = new Problem("urn:workcell:problem:" + code.code(), code.title(), code.httpStatus(), detail,
        code.code(), uri == null ? null : uri.getPath());
    return Response.status(code.httpStatus()).type(PROBLEM_JSON).entity(problem).build();
  }
}
