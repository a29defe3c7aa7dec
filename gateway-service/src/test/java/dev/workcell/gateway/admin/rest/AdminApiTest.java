package dev.workcell.gateway.admin.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.contracts.task.WorkAdminApi.SetRole;
import dev.workcell.contracts.task.WorkAdminApi.SetStatus;
import dev.workcell.gateway.fixture.AdminFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Accounts, Work access and the audit log at the gateway: admins only, input checked at the door, sent on as typed requests. */
@QuarkusTest
class AdminApiTest {

  static final String USER = "u-alice";
  static final String ADMIN = "u-bob";

  private static RequestSpecification as(String account) {
    return given().auth().oauth2(token(account)).contentType(ContentType.JSON);
  }

  private static void problem(Response response, int status, String code) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.jsonPath().getString("code")).isEqualTo(code);
  }

  @Test
  void anAdminManagesAccountsAccessAndReadsTheAuditLog() {
    assertThat(as(ADMIN).get("/api/work/admin/accounts").then().statusCode(200).extract().jsonPath()
        .getList("accounts.username", String.class)).contains("alice", "bob");
    as(ADMIN).body(Map.of("role", "admin")).put("/api/work/admin/accounts/u-alice/role").then().statusCode(200);
    as(ADMIN).body(Map.of("status", "disabled")).put("/api/work/admin/accounts/u-alice/status").then().statusCode(200);
    as(ADMIN).body(Map.of("mode", "users")).put("/api/work/admin/access").then().statusCode(200);
    as(ADMIN).get("/api/work/admin/access").then().statusCode(200);
    assertThat(as(ADMIN).queryParam("limit", "50").queryParam("before", "99").get("/api/work/admin/audit").then().statusCode(200)
        .extract().jsonPath().getList("entries.action", String.class)).containsExactly("access.mode");
    assertThat(AdminFixtures.RECEIVED).contains(new SetRole("u-alice", RoleName.ADMIN), new SetStatus("u-alice", "disabled"),
        new SetAccess("users"), new ListAudit(null, 99L, 50));
    as(ADMIN).delete("/api/work/admin/accounts/u-nobody").then().statusCode(200);
  }

  @Test
  void badValuesAreProblemsAndNeverSentOn() {
    int before = AdminFixtures.RECEIVED.size();
    problem(as(ADMIN).body(Map.of("role", "service")).put("/api/work/admin/accounts/u-alice/role"), 400, "invalid_request");
    problem(as(ADMIN).body(Map.of("role", "ADMIN")).put("/api/work/admin/accounts/u-alice/role"), 400, "invalid_request");
    problem(as(ADMIN).body(Map.of("status", "banned")).put("/api/work/admin/accounts/u-alice/status"), 400, "invalid_request");
    problem(as(ADMIN).body(Map.of("mode", "everyone")).put("/api/work/admin/access"), 400, "invalid_request");
    problem(as(ADMIN).queryParam("limit", "501").get("/api/work/admin/audit"), 400, "invalid_request");
    problem(as(ADMIN).queryParam("before", "x").get("/api/work/admin/audit"), 400, "invalid_request");
    problem(as(ADMIN).delete("/api/work/admin/accounts/a%20b"), 404, "not_found");
    assertThat(AdminFixtures.RECEIVED).hasSize(before);
  }

  @Test
  void usersAreForbiddenBeforeTheirInputIsRead() {
    for (Response response : List.of(as(USER).get("/api/work/admin/accounts"), as(USER).get("/api/work/admin/access"),
        as(USER).get("/api/work/admin/audit"), as(USER).delete("/api/work/admin/accounts/u-bob"),
        as(USER).body(Map.of("role", "nonsense")).put("/api/work/admin/accounts/u-alice/role"),
        as(USER).body(Map.of("mode", "users")).put("/api/work/admin/access"))) {
      problem(response, 403, "forbidden");
    }
  }
}
