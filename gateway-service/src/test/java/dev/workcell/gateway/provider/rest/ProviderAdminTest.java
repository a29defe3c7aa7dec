package dev.workcell.gateway.provider.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.gateway.fixture.ProviderFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The admin provider endpoints and the providers in capabilities, against fixture services on real NATS. */
@QuarkusTest
class ProviderAdminTest {

  static final String USER = "u-alice";
  static final String ADMIN = "u-bob";
  static final String BASE = "/api/work/admin/providers";

  @Test
  void usersAreForbiddenOnEveryProviderEndpoint() {
    String id = "p-" + UUID.randomUUID();
    putAsAdmin(id, Map.of("kind", "ollama", "baseUrl", "http://127.0.0.1:11434")).then().statusCode(200);
    List<Response> responses = List.of(
        given().auth().oauth2(token(USER)).get(BASE),
        given().auth().oauth2(token(USER)).get(BASE + "/" + id),
        given().auth().oauth2(token(USER)).contentType(ContentType.JSON).body(Map.of("kind", "ollama", "baseUrl", "http://evil.test"))
            .put(BASE + "/" + id),
        // Not even a bad body tells a user anything but "forbidden".
        given().auth().oauth2(token(USER)).contentType(ContentType.JSON).body(Map.of("kind", "nope")).put(BASE + "/" + id),
        given().auth().oauth2(token(USER)).delete(BASE + "/" + id));
    for (Response response : responses) {
      assertThat(response.statusCode()).isEqualTo(403);
      assertThat(response.contentType()).startsWith("application/problem+json");
      assertThat(response.jsonPath().getString("code")).isEqualTo("forbidden");
    }
    given().auth().oauth2(token(ADMIN)).get(BASE + "/" + id).then().statusCode(200).body("baseUrl", equalTo("http://127.0.0.1:11434"));
  }

  @Test
  void theKeyReachesTaskServiceButNoResponseEverCarriesIt() {
    String id = "openai-" + UUID.randomUUID();
    String key = "sk-secret-" + UUID.randomUUID();
    Response put = putAsAdmin(id, Map.of("kind", "openai", "baseUrl", "https://api.example.test/v1", "apiKey", key,
        "models", List.of("gpt-x", "gpt-y")));

    put.then().statusCode(200).body("hasApiKey", equalTo(true)).body("id", equalTo(id));
    assertThat(ProviderFixtures.RECEIVED).anySatisfy(p -> assertThat(p.apiKey()).isEqualTo(key));
    List<String> bodies = new ArrayList<>();
    bodies.add(put.asString());
    bodies.add(given().auth().oauth2(token(ADMIN)).get(BASE + "/" + id).then().statusCode(200).extract().asString());
    bodies.add(given().auth().oauth2(token(ADMIN)).get(BASE).then().statusCode(200).extract().asString());
    bodies.add(given().auth().oauth2(token(ADMIN)).get("/api/work/capabilities").then().statusCode(200).extract().asString());
    String userView = given().auth().oauth2(token(USER)).get("/api/work/capabilities").then().statusCode(200).extract().asString();
    bodies.add(userView);
    bodies.add(given().auth().oauth2(token(ADMIN)).delete(BASE + "/" + id).then().statusCode(200).extract().asString());
    assertThat(bodies).allSatisfy(body -> assertThat(body).doesNotContain(key).doesNotContain("apiKey\""));
    assertThat(userView).doesNotContain("https://api.example.test").doesNotContain("baseUrl");
    given().auth().oauth2(token(ADMIN)).get(BASE + "/" + id).then().statusCode(404).body("code", equalTo("not_found"));
  }

  @Test
  void capabilitiesListEnvironmentAndAdminProvidersWithRemoteFlags() {
    String id = "cloudy-" + UUID.randomUUID();
    putAsAdmin(id, Map.of("kind", "ollama", "baseUrl", "http://127.0.0.1:11434", "models", List.of("qwen3:8b", "gpt-oss:120b-cloud")))
        .then().statusCode(200);

    Response caps = given().auth().oauth2(token(USER)).get("/api/work/capabilities");

    caps.then().statusCode(200);
    assertThat(caps.jsonPath().getList("providers.id", String.class)).contains(ProviderFixtures.ENVIRONMENT_ID, id);
    Map<String, Object> configured = caps.jsonPath().getMap("providers.find { it.id == '" + id + "' }");
    assertThat(configured).containsEntry("kind", "ollama").containsEntry("source", "admin").containsEntry("remote", false);
    assertThat(caps.jsonPath().getList("providers.find { it.id == '" + id + "' }.models.remote", Boolean.class)).containsExactly(false, true);
    assertThat(caps.jsonPath().getString("providers.find { it.id == 'env-ollama' }.source")).isEqualTo("environment");
  }

  @Test
  void anEnvironmentProvidersIdIsReadOnly() {
    putAsAdmin(ProviderFixtures.ENVIRONMENT_ID, Map.of("kind", "ollama", "baseUrl", "http://127.0.0.1:11434"))
        .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("conflict"));
  }

  @Test
  void invalidDefinitionsAreProblemsNeverServerErrors() {
    record Case(String id, Object body, int status, String code) {}
    Map<String, Object> ok = Map.of("kind", "openai", "baseUrl", "https://api.example.test/v1");
    List<Case> cases = List.of(
        new Case("has space", ok, 400, "invalid_request"),
        new Case("x".repeat(201), ok, 400, "provider_id_too_long"),
        new Case("p1", with(ok, "kind", "ollama_cloud"), 400, "invalid_request"),
        new Case("p1", with(ok, "kind", "mistral"), 400, "invalid_request"),
        new Case("p1", with(ok, "kind", null), 400, "invalid_request"),
        new Case("p1", with(ok, "baseUrl", null), 400, "invalid_request"),
        new Case("p1", with(ok, "baseUrl", "api.example.test"), 400, "invalid_request"),
        new Case("p1", with(ok, "baseUrl", "file:///etc/passwd"), 400, "invalid_request"),
        new Case("p1", with(ok, "baseUrl", "https://user:pw@api.example.test/v1"), 400, "invalid_request"),
        new Case("p1", with(ok, "baseUrl", "https://api.example.test/v1#x"), 400, "invalid_request"),
        new Case("p1", with(ok, "baseUrl", "https://api.example.test/" + "a".repeat(2000)), 400, "invalid_request"),
        new Case("p1", with(ok, "baseUrl", "http://[bad"), 400, "invalid_request"),
        new Case("p1", with(ok, "apiKey", "k".repeat(4097)), 400, "invalid_request"),
        new Case("p1", with(ok, "apiKey", "sk\r\nX-Injected: 1"), 400, "invalid_request"),
        new Case("p1", with(ok, "models", Collections.nCopies(201, "m")), 400, "invalid_request"),
        new Case("p1", with(ok, "models", List.of("m".repeat(501))), 400, "model_id_too_long"),
        new Case("p1", with(ok, "models", List.of("")), 400, "invalid_request"),
        new Case("p1", with(ok, "models", "not-a-list"), 400, "malformed_json"),
        new Case("p1", "{\"kind\": ", 400, "malformed_json"),
        new Case("p1", "[]", 400, null));
    for (Case c : cases) {
      var request = given().auth().oauth2(token(ADMIN)).contentType(ContentType.JSON);
      Response response = (c.body() instanceof String raw ? request.body(raw) : request.body(c.body())).put(BASE + "/" + c.id());
      assertThat(response.statusCode()).as(c.toString()).isEqualTo(c.status());
      assertThat(response.contentType()).as(c.toString()).startsWith("application/problem+json");
      if (c.code() != null) {
        assertThat(response.jsonPath().getString("code")).as(c.toString()).isEqualTo(c.code());
      }
    }
    // Unknown fields are ignored, as in every other body of the gateway.
    putAsAdmin("p-extra-" + UUID.randomUUID(), with(ok, "colour", "blue")).then().statusCode(200);
  }

  @Test
  void theOpenApiDocumentNamesEveryProviderOperation() {
    String document = given().get("/q/openapi?format=json").then().statusCode(200).extract().asString();
    assertThat(document).contains("\"listProviders\"", "\"getProvider\"", "\"putProvider\"", "\"deleteProvider\"",
        "/api/work/admin/providers/{id}");
  }

  private static Response putAsAdmin(String id, Map<String, Object> body) {
    return given().auth().oauth2(token(ADMIN)).contentType(ContentType.JSON).body(body).put(BASE + "/" + id);
  }

  private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
    Map<String, Object> copy = new HashMap<>(base);
    copy.put(key, value);
    return copy;
  }
}
