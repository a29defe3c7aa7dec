package dev.workcell.sandbox.preview.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartPreview;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * WORK_DOCKER_PUBLISHED_HOST: the preview stays published on the preview bind (loopback), and the
 * address callers are told to connect to is the configured host.
 */
@QuarkusTest
@TestProfile(PublishedHostTest.PublishedHost.class)
class PublishedHostTest {

  public static class PublishedHost implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.sandbox.docker-published-host", "localhost");
    }
  }

  @Inject
  SandboxClient sandboxes;

  @Test
  void thePreviewEndpointNamesThePublishedHost() throws Exception {
    SandboxRef ref = sandboxes.newTask("published-host");
    try {
      sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "index.html", "<h1>via the published host</h1>", null, false));
      PreviewState started = sandboxes.call(SandboxSubjects.PREVIEW_START, new StartPreview(ref, null));
      assertThat(started.hostAddress()).isEqualTo("localhost");
      assertThat(started.hostPort()).isPositive();
      var response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://" + started.hostAddress() + ":" + started.hostPort() + "/")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(response.body()).contains("via the published host");
      assertThat(sandboxes.call(SandboxSubjects.PREVIEW_STATUS, ref).hostAddress()).isEqualTo("localhost");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }
}
