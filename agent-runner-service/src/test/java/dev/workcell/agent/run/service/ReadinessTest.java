package dev.workcell.agent.run.service;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
class ReadinessTest {

  @Test
  void readyOnceTheWorkQueueIsBoundAndNoKeyIsShown() throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (given().get("/q/health/ready").statusCode() != 200 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    given().get("/q/health/ready").then().statusCode(200)
        .body(containsString("run-intake"))
        .body(containsString("ollama,openai,anthropic,gemini"))
        .body(not(containsString("sk-test")));
  }
}
