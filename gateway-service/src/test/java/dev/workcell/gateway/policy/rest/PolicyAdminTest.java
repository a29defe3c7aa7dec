package dev.workcell.gateway.policy.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.gateway.fixture.PolicyFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The admin policy endpoints: the egress allowlist is checked at the door and sent on in canonical form. */
@QuarkusTest
class PolicyAdminTest {

  static final String USER = "u-alice";
  static final String ADMIN = "u-bob";
  static final String BASE = "/api/work/admin/policies";

  private static Response post(String account, Map<String, Object> body) {
    return given().auth().oauth2(token(account)).contentType(ContentType.JSON).body(body).post(BASE);
  }

  @Test
  void anAllowlistReachesTaskServiceInCanonicalForm() {
    String name = "egress-" + UUID.randomUUID();
    Response created = post(ADMIN, Map.of("name", name, "egressAllowlist", List.of("PyPI.org.", "*.GitHub.com", "pypi.org")));
    created.then().statusCode(200);
    assertThat(created.jsonPath().getList("egressAllowlist", String.class)).containsExactly("pypi.org", "*.github.com");
    assertThat(PolicyFixtures.RECEIVED).anySatisfy(p -> {
      assertThat(p.name()).isEqualTo(name);
      assertThat(p.egressAllowlist()).containsExactly("pypi.org", "*.github.com");
      assertThat(p.networkEnabled()).isTrue();
    });
    String id = created.jsonPath().getString("id");
    Map<String, Object> open = new HashMap<>(Map.of("name", name));
    open.put("egressAllowlist", null);
    Response replaced = given().auth().oauth2(token(ADMIN)).contentType(ContentType.JSON).body(open).put(BASE + "/" + id);
    replaced.then().statusCode(200);
    assertThat(replaced.jsonPath().getList("egressAllowlist")).isNull();
  }

  @Test
  void badAllowlistsAreProblemsAndNeverSentOn() {
    int before = PolicyFixtures.RECEIVED.size();
    List<Object> bad = List.of(List.of("10.0.0.1"), List.of("*.com"), List.of("https://pypi.org"), List.of("pypi.org:443"),
        List.of("*"), List.of(""), Collections.nCopies(101, "a.org"));
    for (Object list : bad) {
      Response response = post(ADMIN, Map.of("name", "bad", "egressAllowlist", list));
      assertThat(response.statusCode()).as("%s", list).isEqualTo(400);
      assertThat(response.contentType()).startsWith("application/problem+json");
      assertThat(response.jsonPath().getString("code")).isEqualTo("invalid_request");
    }
    assertThat(PolicyFixtures.RECEIVED).hasSize(before);
  }

  @Test
  void usersAreForbiddenBeforeTheirInputIsRead() {
    for (Response response : List.of(post(USER, Map.of("name", "x", "egressAllowlist", List.of("1.2.3.4"))),
        given().auth().oauth2(token(USER)).get(BASE), given().auth().oauth2(token(USER)).delete(BASE + "/" + UUID.randomUUID()))) {
      assertThat(response.statusCode()).isEqualTo(403);
      assertThat(response.jsonPath().getString("code")).isEqualTo("forbidden");
    }
  }

  @Test
  void aHardeningFieldOrAnyUnknownFieldIsRefusedAndNeverSentOn() {
    int before = PolicyFixtures.RECEIVED.size();
    for (String field : List.of("privileged", "capAdd", "readOnlyRootFilesystem", "seccompProfile", "user", "nme")) {
      Response response = post(ADMIN, Map.of("name", "hard", field, true));
      assertThat(response.statusCode()).as(field).isEqualTo(400);
      assertThat(response.jsonPath().getString("code")).isEqualTo("invalid_request");
      assertThat(response.jsonPath().getString("detail")).contains("no field " + field);
    }
    assertThat(PolicyFixtures.RECEIVED).hasSize(before);
  }
}
