package dev.workcell.gateway.openterminal;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our tool document against Open Terminal 0.11.34's (src/test/resources): OpenWebUI derives one
 * tool per operationId from it, so operations, parameter names, locations, required flags, types,
 * defaults and request bodies must be the same, and nothing else may be offered as an operation.
 */
@QuarkusTest
class OpenTerminalContractTest {

  static final ObjectMapper JSON = new ObjectMapper();
  static JsonNode reference;
  static JsonNode ours;

  @BeforeAll
  static void load() throws Exception {
    try (InputStream in = OpenTerminalContractTest.class.getResourceAsStream("/open-terminal-0.11.34-openapi.json")) {
      reference = JSON.readTree(in);
    }
  }

  JsonNode ours() throws Exception {
    if (ours == null) {
      // Fetched without a key, as upstream serves it.
      String body = given().when().get("/api/open-terminal/openapi.json").then().statusCode(200).extract().asString();
      ours = JSON.readTree(body);
    }
    return ours;
  }

  @Test
  void theOperationsAreExactlyTheReferencesTwelve() throws Exception {
    Map<String, String> expected = operations(reference);
    assertThat(expected).hasSize(12);
    assertThat(operations(ours())).isEqualTo(expected);
  }

  @Test
  void everyParameterHasTheReferencesNameLocationRequiredFlagTypeAndDefault() throws Exception {
    for (Map.Entry<String, JsonNode> op : byOperationId(reference).entrySet()) {
      JsonNode mine = byOperationId(ours()).get(op.getKey());
      Map<String, JsonNode> want = parameters(op.getValue());
      Map<String, JsonNode> got = parameters(mine);
      assertThat(got.keySet()).as(op.getKey()).isEqualTo(want.keySet());
      for (String name : want.keySet()) {
        JsonNode w = want.get(name);
        JsonNode g = got.get(name);
        assertThat(g.path("in")).as(op.getKey() + " " + name + " in").isEqualTo(w.path("in"));
        assertThat(g.path("required").asBoolean(false)).as(op.getKey() + " " + name + " required")
            .isEqualTo(w.path("required").asBoolean(false));
        assertThat(g.path("schema")).as(op.getKey() + " " + name + " schema (types, bounds, default)").isEqualTo(w.path("schema"));
      }
    }
  }

  @Test
  void requestBodiesAndTheirSchemasAreTheReferences() throws Exception {
    for (Map.Entry<String, JsonNode> op : byOperationId(reference).entrySet()) {
      JsonNode mine = byOperationId(ours()).get(op.getKey());
      assertThat(mine.path("requestBody")).as(op.getKey()).isEqualTo(op.getValue().path("requestBody"));
    }
    assertThat(ours().path("components").path("schemas")).isEqualTo(reference.path("components").path("schemas"));
    assertThat(ours().path("components").path("securitySchemes")).isEqualTo(reference.path("components").path("securitySchemes"));
  }

  @Test
  void pathsAreServerRelativeUnderTheOpenTerminalBase() throws Exception {
    assertThat(ours().path("servers").get(0).path("url").asText()).isEqualTo("/api/open-terminal");
    ours().path("paths").fieldNames().forEachRemaining(path -> assertThat(path).startsWith("/").doesNotContain("open-terminal"));
    assertThat(ours().path("paths").path("/execute").path("post").path("description").asText())
        .contains("/home/user").doesNotContain("unknown");
  }

  @Test
  void theWorkApiDocumentDoesNotListTheTerminalEndpoints() {
    String work = given().queryParam("format", "json").when().get("/q/openapi").then().statusCode(200).extract().asString();
    assertThat(work).doesNotContain("/api/open-terminal").contains("/api/work/tasks");
  }

  /** operationId → "METHOD path". */
  static Map<String, String> operations(JsonNode document) {
    Map<String, String> operations = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext();) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Iterator<Map.Entry<String, JsonNode>> methods = path.getValue().fields(); methods.hasNext();) {
        Map.Entry<String, JsonNode> method = methods.next();
        operations.put(method.getValue().path("operationId").asText(), method.getKey().toUpperCase() + " " + path.getKey());
      }
    }
    return operations;
  }

  static Map<String, JsonNode> byOperationId(JsonNode document) {
    Map<String, JsonNode> operations = new TreeMap<>();
    document.path("paths").forEach(path -> path.forEach(op -> operations.put(op.path("operationId").asText(), op)));
    return operations;
  }

  static Map<String, JsonNode> parameters(JsonNode operation) {
    Map<String, JsonNode> parameters = new TreeMap<>();
    operation.path("parameters").forEach(p -> parameters.put(p.path("name").asText(), p));
    return parameters;
  }
}
