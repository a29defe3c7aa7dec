package dev.workcell.sandbox.preview.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartPreview;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TaskServiceFixture;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The preview is published on a Docker-assigned loopback port, and refused without network. */
@QuarkusTest
class PreviewControlTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  TaskServiceFixture taskService;

  @Test
  void aStaticPreviewIsReachableOnItsPublishedLoopbackPort() throws Exception {
    SandboxRef ref = sandboxes.shared();
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "index.html", "<h1>preview works</h1>", null, false));
    sandboxes.call(SandboxSubjects.PREVIEW_STOP, ref);
    long generation = taskService.previewGeneration(ref.taskId());
    try {
      PreviewState started = sandboxes.call(SandboxSubjects.PREVIEW_START, new StartPreview(ref, null));
      assertThat(started.running()).isTrue();
      // Each start is a new generation in task-service: signed URLs of the previous run stop working.
      assertThat(taskService.previewGeneration(ref.taskId())).isEqualTo(generation + 1);
      assertThat(started.containerPort()).isEqualTo(4173);
      assertThat(started.hostAddress()).isEqualTo("127.0.0.1");
      assertThat(started.hostPort()).isPositive();
      var response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + started.hostPort() + "/")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(response.body()).contains("preview works");
      assertThat(sandboxes.call(SandboxSubjects.PREVIEW_STATUS, ref).running()).isTrue();
    } finally {
      PreviewState stopped = sandboxes.call(SandboxSubjects.PREVIEW_STOP, ref);
      assertThat(stopped.running()).isFalse();
    }
  }

  @Test
  void aSandboxWithoutNetworkCannotStartAPreview() {
    SandboxRef ref = sandboxes.newTask("offline-previewer");
    try {
      taskService.policy(ref.taskId(), null, null, null, false);
      sandboxes.ensure(ref);
      var error = sandboxes.failure(SandboxSubjects.PREVIEW_START, new StartPreview(ref, "python3 -m http.server 4173"));
      assertThat(error.code()).isEqualTo(ErrorCode.NETWORK_DISABLED);
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }
}
