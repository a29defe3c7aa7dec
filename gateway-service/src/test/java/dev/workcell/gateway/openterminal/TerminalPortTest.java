package dev.workcell.gateway.openterminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.workcell.contracts.sandbox.ListPorts;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /ports: upstream's shape, and each user asks only their own home's network namespace. */
@QuarkusTest
class TerminalPortTest {

  @BeforeEach
  void reset() {
    HomeSandboxFixture.reset();
  }

  @Test
  void eachUserGetsTheListeningPortsOfTheirOwnHomeInOpenTerminalsShape() {
    Terminal.as("ab").when().get("/ports").then().statusCode(200)
        .body("ports", hasSize(1)).body("ports[0].port", equalTo(3002))
        .body("ports[0].pid", nullValue()).body("ports[0].process", nullValue());
    Terminal.as("abcd").when().get("/ports").then().statusCode(200).body("ports[0].port", equalTo(3004));
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.PORTS_LIST, ListPorts.class))
        .extracting(l -> l.sandbox().homeUserId()).containsExactly("ab", "abcd");
  }

  @Test
  void withoutTheKeyNothingIsListed() {
    RestAssured.given().header("X-User-Id", "ab").when().get("/api/open-terminal/ports").then().statusCode(401);
    assertThat(HomeSandboxFixture.seen(SandboxSubjects.PORTS_LIST, ListPorts.class)).isEmpty();
  }
}
