package dev.workcell.gateway.problem;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a generated client relies on in /q/openapi: operation ids, problem answers with their codes, the event stream's type. */
@QuarkusTest
class OpenApiDocumentTest {

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
}
