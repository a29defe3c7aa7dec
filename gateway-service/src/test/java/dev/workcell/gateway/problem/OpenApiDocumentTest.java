package dev.workcell.gateway.problem;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a generated client relies on in /q/openapi: operation ids, problem answers with their codes, the event stream's type. */
@QuarkusTest
class OpenApiDocumentTest {

  /** The document openapi-client-tests generates its client from; regenerate with -Dworkcell.regenerate=true. */
  private static final Path CLIENT_SNAPSHOT = Path.of("../openapi-client-tests/src/test/openapi/workcell-openapi.json");

  @SuppressWarnings("unchecked")
  @Test
  void everyOperationDocumentsItsProblemsAndTheEventStreamIsServerSentEvents() {
    Map<String, Object> document = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
        .extract().jsonPath().getMap("$");
    Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) document.get("paths");
    Set<String> operationIds = new HashSet<>();
    int operations = 0;
    for (var path : paths.entrySet()) {
      for (var entry : path.getValue().entrySet()) {
        if (!List.of("get", "put", "post", "delete", "patch").contains(entry.getKey())) {
          continue;
        }
        operations++;
        Map<String, Object> operation = (Map<String, Object>) entry.getValue();
        String name = entry.getKey() + " " + path.getKey();
        assertThat((String) operation.get("operationId")).as("%s has an operationId", name).isNotBlank();
        assertThat(operationIds.add((String) operation.get("operationId"))).as("%s's operationId is unique", name).isTrue();
        Map<String, Map<String, Object>> responses = (Map<String, Map<String, Object>>) operation.get("responses");
        List<String> expected = ProblemResponsesFilter.statuses(path.getKey(),
            org.eclipse.microprofile.openapi.models.PathItem.HttpMethod.valueOf(entry.getKey().toUpperCase())).stream()
            .map(String::valueOf).toList();
        assertThat(responses).as(name).containsKeys(expected.toArray(String[]::new));
        for (String status : expected) {
          Map<String, Object> content = (Map<String, Object>) responses.get(status).get("content");
          Map<String, Object> problem = (Map<String, Object>) content.get(ProblemResponsesFilter.PROBLEM);
          assertThat(((Map<String, Object>) problem.get("schema")).get("$ref")).as("%s %s", name, status)
              .isEqualTo("#/components/schemas/Problem");
          assertThat(((Map<String, Object>) problem.get("example")).get("code")).as("%s %s example", name, status).isNotNull();
        }
        assertThat(responses.get("429").get("headers")).as(name).isNotNull();
      }
    }
    assertThat(operations).isGreaterThan(40);
    Map<String, Object> events = (Map<String, Object>) paths.get("/api/work/tasks/{taskId}/runs/{runId}/events").get("get");
    Map<String, Map<String, Object>> responses = (Map<String, Map<String, Object>>) events.get("responses");
    assertThat(responses).doesNotContainKey("204");
    assertThat((Map<String, Object>) responses.get("200").get("content")).containsOnlyKeys("text/event-stream");
    assertThat((String) responses.get("200").get("description")).contains("assistant_delta", "done");
    Map<String, Object> problem = given().queryParam("format", "json").get("/q/openapi").then().extract().jsonPath()
        .getMap("components.schemas.Problem.properties.code");
    assertThat((List<String>) problem.get("enum")).contains("invalid_request", "rate_limited", "not_found", "conflict");
  }

  /**
   * An operation documents the success status it answers (WorkApiTest and RunDoorTest see 201 and 202
   * on the wire): a generated client that expects 200 for a 201 treats a created task as an error.
   */
  @SuppressWarnings("unchecked")
  @Test
  void operationsThatCreateOrAcceptDocumentTheStatusTheyAnswer() {
    Map<String, Map<String, Map<String, Object>>> paths = given().queryParam("format", "json").get("/q/openapi").then()
        .statusCode(200).extract().jsonPath().getMap("paths");
    Map<String, String> answered = Map.of("createTask", "201", "startRun", "201", "issueWebSocketTicket", "201",
        "postRunMessage", "202");
    Map<String, Set<String>> documented = new java.util.HashMap<>();
    paths.forEach((path, operations) -> operations.forEach((method, operation) -> {
      if (operation.get("operationId") instanceof String id && answered.containsKey(id)) {
        Map<String, Object> responses = (Map<String, Object>) operation.get("responses");
        documented.put(id, responses.keySet().stream().filter(status -> status.startsWith("2"))
            .collect(java.util.stream.Collectors.toSet()));
      }
    }));
    answered.forEach((id, status) -> assertThat(documented.get(id)).as(id).containsExactly(status));
  }

  @SuppressWarnings("unchecked")
  @Test
  void noReadTakesARequestBody() {
    Map<String, Map<String, Map<String, Object>>> paths = given().queryParam("format", "json").get("/q/openapi").then()
        .statusCode(200).extract().jsonPath().getMap("paths");
    // A server-side object (Vert.x's RoutingContext) once appeared as a required JSON body of three reads.
    paths.forEach((path, operations) -> assertThat(operations.getOrDefault("get", Map.of())).as("GET %s", path)
        .doesNotContainKey("requestBody"));
    assertThat(given().queryParam("format", "json").get("/q/openapi").then().extract().jsonPath()
        .getMap("components.schemas")).doesNotContainKey("RoutingContext");
  }

  /** The generated client (openapi-client-tests) is built from exactly the document the gateway serves. */
  @Test
  void theGeneratedClientsSnapshotIsTheServedDocument() throws IOException {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
        .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    JsonNode served = mapper.readTree(given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
        .extract().asString());
    if (Boolean.getBoolean("workcell.regenerate")) {
      Files.writeString(CLIENT_SNAPSHOT, mapper.writeValueAsString(mapper.treeToValue(served, Object.class)) + "\n");
    }
    assertThat(mapper.readTree(CLIENT_SNAPSHOT.toFile()))
        .as(CLIENT_SNAPSHOT + " differs from /q/openapi; regenerate: ./mvnw -B -pl gateway-service verify "
            + "-Dtest=OpenApiDocumentTest -Dworkcell.regenerate=true")
        .isEqualTo(served);
  }
}
