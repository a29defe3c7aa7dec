package dev.workcell.mirror.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.testing.PrivateNatsServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The service as deployed: configured from properties, a file in a home reaches the bucket, status and metrics show it. */
@QuarkusTest
@QuarkusTestResource(PrivateNatsServer.class)
@QuarkusTestResource(S3MirrorResource.class)
class MirrorServiceTest {

  @Test
  void aFileInAHomeReachesTheBucketAndTheStatusAndMetricsShowIt() throws Exception {
    Path data = Files.createDirectories(S3MirrorResource.diskRoot.resolve("workcell-home-" + "cd".repeat(32)).resolve("mnt/data"));
    Files.writeString(data.resolve("hello.txt"), "hello");
    String key = "homes/" + "cd".repeat(32) + "/hello.txt";

    long deadline = System.nanoTime() + 30_000_000_000L;
    List<String> keys = new ArrayList<>();
    while (System.nanoTime() < deadline && !keys.contains(key)) {
      Thread.sleep(100);
      keys.clear();
      S3MirrorResource.server.bucket().list("homes/", o -> keys.add(o.key()));
    }
    assertThat(keys).contains(key);
    // Idle once the copy is recorded: what the overload check waits for before it measures memory.
    while (System.nanoTime() < deadline && !given().get("/mirror/status").then().extract().jsonPath().getBoolean("idle")) {
      Thread.sleep(100);
    }

    given().get("/mirror/status").then().statusCode(200)
        .body("enabled", equalTo(true)).body("idle", equalTo(true)).body("objects", equalTo(1)).body("bucket", equalTo(S3Server.BUCKET));
    given().get("/q/metrics").then().statusCode(200)
        .body(containsString("workcell_mirror_lag_seconds")).body(containsString("workcell_mirror_puts_total 1.0"));
  }
}
