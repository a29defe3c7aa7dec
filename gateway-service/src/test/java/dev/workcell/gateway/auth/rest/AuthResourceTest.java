package dev.workcell.gateway.auth.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.account.Account;
import dev.workcell.gateway.fixture.FixtureServices;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import java.security.KeyPairGenerator;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bearer tokens against the gateway, with task-service played by a fixture responder on the real
 * test NATS (FixtureServices): the account's row, not the token, decides whether a request passes.
 */
@QuarkusTest
class AuthResourceTest {

  @BeforeEach
  void accounts() {
    // task-service's account subject is played by the shared fixture (FixtureServices).
    FixtureServices.ACCOUNTS.put("a-active", new Account("a-active", "ada", Actor.Role.ADMIN, "active"));
    FixtureServices.ACCOUNTS.put("a-disabled", new Account("a-disabled", "dan", Actor.Role.USER, "disabled"));
  }

  static String token(String subject) {
    return Jwt.issuer("workcell").subject(subject).upn(subject).groups("user").expiresIn(600).sign();
  }

  @Test
  void aValidTokenReadsTheAccountFresh() {
    given().auth().oauth2(token("a-active"))
        .when().get("/api/auth/me")
        .then().statusCode(200).body("username", equalTo("ada")).body("role", equalTo("ADMIN"));
  }

  @Test
  void aDisabledAccountIsRefusedEvenWithAValidToken() {
    given().auth().oauth2(token("a-disabled"))
        .when().get("/api/auth/me")
        .then().statusCode(403).contentType("application/problem+json").body("code", equalTo("account_disabled"));
  }

  @Test
  void aTokenForAnAccountThatDoesNotExistIsUnauthenticated() {
    given().auth().oauth2(token("a-gone"))
        .when().get("/api/auth/me")
        .then().statusCode(401).body("code", equalTo("unauthenticated"));
  }

  @Test
  void missingMalformedExpiredForeignAndWrongIssuerTokensAreRefused() throws Exception {
    given().when().get("/api/auth/me").then().statusCode(401);
    given().auth().oauth2("not-a-jwt").when().get("/api/auth/me").then().statusCode(401);

    String expired = Jwt.issuer("workcell").subject("a-active").issuedAt(Instant.now().minusSeconds(7200))
        .expiresAt(Instant.now().minusSeconds(3600)).sign();
    given().auth().oauth2(expired).when().get("/api/auth/me").then().statusCode(401);

    var foreignKey = KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate();
    String foreign = Jwt.issuer("workcell").subject("a-active").expiresIn(600).sign(foreignKey);
    given().auth().oauth2(foreign).when().get("/api/auth/me").then().statusCode(401);

    String wrongIssuer = Jwt.issuer("someone-else").subject("a-active").expiresIn(600).sign();
    given().auth().oauth2(wrongIssuer).when().get("/api/auth/me").then().statusCode(401);

    String valid = token("a-active");
    String tampered = valid.substring(0, valid.indexOf('.') + 1)
        + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
            "{\"iss\":\"workcell\",\"sub\":\"a-disabled\",\"exp\":9999999999}".getBytes())
        + valid.substring(valid.lastIndexOf('.'));
    given().auth().oauth2(tampered).when().get("/api/auth/me").then().statusCode(401);
  }
}
