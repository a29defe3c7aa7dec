package dev.workcell.gateway.problem;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.run.RunEventType;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Completes {@code /q/openapi} so generated clients can trust it: every operation lists the problem
 * answers it can give ({@code application/problem+json}, one {@code Problem} schema, the stable
 * {@code code} values of each status taken from {@link ErrorCode}, an example), and the run-event
 * stream is {@code text/event-stream} with its event types. Which statuses apply follows from the
 * operation's shape: 404 with a path parameter, 413 and 409 with a body or a change.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class ProblemResponsesFilter implements OASFilter {

  static final String PROBLEM = "application/problem+json";
  private static final String PROBLEM_REF = "#/components/schemas/Problem";

  @Override
  public void filterOpenAPI(OpenAPI openAPI) {
    if (openAPI.getComponents() == null) {
      openAPI.setComponents(OASFactory.createComponents());
    }
    openAPI.getComponents().addSchema("Problem", problemSchema());
    if (openAPI.getPaths() == null) {
      return;
    }
    openAPI.getPaths().getPathItems().forEach((path, item) -> item.getOperations().forEach((method, operation) -> {
      APIResponses responses = operation.getResponses() == null ? OASFactory.createAPIResponses() : operation.getResponses();
      operation.setResponses(responses);
      if (path.endsWith("/events") && method == PathItem.HttpMethod.GET) {
        eventStream(responses);
      }
      for (int status : statuses(path, method)) {
        APIResponse standard = problem(status);
        APIResponse own = responses.getAPIResponse(String.valueOf(status));
        // An operation's own description (the codes it can answer, as the Git writes name them) is
        // kept; the schema, example and headers are the standard ones.
        responses.addAPIResponse(String.valueOf(status), own == null ? standard
            : standard.description(own.getDescription() == null ? standard.getDescription() : own.getDescription()));
      }
    }));
  }

  /** The problem statuses an operation of this shape can answer. */
  static List<Integer> statuses(String path, PathItem.HttpMethod method) {
    boolean change = method != PathItem.HttpMethod.GET;
    boolean body = method == PathItem.HttpMethod.POST || method == PathItem.HttpMethod.PUT || method == PathItem.HttpMethod.PATCH;
    List<Integer> statuses = new java.util.ArrayList<>(List.of(400, 401, 403));
    if (path.contains("{")) {
      statuses.add(404);
    }
    if (change) {
      statuses.add(409);
    }
    if (body) {
      statuses.add(413);
    }
    statuses.addAll(List.of(429, 503));
    return statuses;
  }

  private static APIResponse problem(int status) {
    List<ErrorCode> codes = Arrays.stream(ErrorCode.values()).filter(c -> c.httpStatus() == status).toList();
    String names = codes.stream().map(ErrorCode::code).collect(Collectors.joining(", "));
    ErrorCode first = codes.isEmpty() ? ErrorCode.INTERNAL : codes.getFirst();
    Map<String, Object> example = Map.of("type", "urn:workcell:problem:" + first.code(), "title", first.title(),
        "status", status, "detail", first.title(), "code", first.code());
    APIResponse response = OASFactory.createAPIResponse()
        .description(switch (status) {
          case 401 -> "No valid bearer token";
          case 429 -> "Over a limit; retry after the Retry-After seconds";
          case 503 -> "A dependency or the sandbox is not available now; retry";
          default -> "A problem";
        } + (names.isEmpty() ? "" : " (code: " + names + ")"))
        .content(OASFactory.createContent().addMediaType(PROBLEM, OASFactory.createMediaType()
            .schema(OASFactory.createSchema().ref(PROBLEM_REF)).example(example)));
    if (status == 429) {
      response.addHeader("Retry-After", OASFactory.createHeader().description("seconds to wait before retrying")
          .schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)));
    }
    return response;
  }

  private static Schema problemSchema() {
    Schema code = OASFactory.createSchema().addType(Schema.SchemaType.STRING)
        .description("stable error code; clients match on it")
        .enumeration(Arrays.stream(ErrorCode.values()).map(c -> (Object) c.code()).distinct().toList());
    return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
        .description("RFC 9457 problem details with Workcell's stable code")
        .addProperty("type", string("urn:workcell:problem:<code>"))
        .addProperty("title", string("what went wrong, in general"))
        .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER).description("the HTTP status"))
        .addProperty("detail", string("what went wrong, this time"))
        .addProperty("code", code)
        .addProperty("instance", string("the request path"))
        .required(List.of("type", "title", "status", "code"));
  }

  private static Schema string(String description) {
    return OASFactory.createSchema().addType(Schema.SchemaType.STRING).description(description);
  }

  /** The stream is 200 text/event-stream: a snapshot, then events named by their type, data the event as JSON. */
  private static void eventStream(APIResponses responses) {
    responses.removeAPIResponse("204");
    String types = Arrays.stream(RunEventType.values()).map(RunEventType::wire).collect(Collectors.joining(", "));
    responses.addAPIResponse("200", OASFactory.createAPIResponse()
        .description("Server-Sent Events: first a snapshot (id = the resume position), then the run's events (SSE id = the "
            + "per-run seq; event = its type: " + types + "), a heartbeat comment every 15 s, and the end after done")
        .content(OASFactory.createContent().addMediaType("text/event-stream", OASFactory.createMediaType()
            .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                .description("event: <type>\\nid: <seq>\\ndata: <RunEvent JSON>")))));
  }
}
