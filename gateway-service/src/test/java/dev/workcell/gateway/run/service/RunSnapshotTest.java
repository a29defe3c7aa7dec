package dev.workcell.gateway.run.service;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import dev.workcell.gateway.run.rest.SseClient;
import dev.workcell.messaging.JetStreamPublisher;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Issue 5: the snapshot frame of a live stream shows the streamed run, an older run with how it ended. */
@QuarkusTest
class RunSnapshotTest {

  static final String ALICE = "u-alice";

  @Inject
  JetStreamPublisher publisher;

  final ObjectMapper json = new ObjectMapper();

  @Test
  void aSnapshotOfAnOlderRunCarriesThatRunWithItsFinalState() throws Exception {
    TaskView task = FixtureServices.seedTask(ALICE);
    String older = FixtureServices.LATEST_RUNS.get(task.id()).id();
    FixtureServices.latest(finished(older, task.id(), "needs_input", "cancelled by the owner"));
    String newer = UUID.randomUUID().toString();
    FixtureServices.latest(new RunView(newer, task.id(), RunState.RUNNING, ProviderKind.OLLAMA, null, "qwen3", null, 0, 0, 0, 0,
        Instant.now(), Instant.now(), null));
    publish(task, older, 1, "run_state", 2, "done");

    try (SseClient client = SseClient.open(events(task, older), token(ALICE), null)) {
      assertThat(client.status()).isEqualTo(200);
      SseClient.Frame snapshot = client.next();
      assertThat(snapshot.event()).isEqualTo("snapshot");
      JsonNode frame = json.readTree(snapshot.data());
      assertThat(frame.path("runId").asText()).isEqualTo(older);
      assertThat(frame.path("task").path("id").asText()).isEqualTo(task.id());
      JsonNode run = frame.path("run");
      assertThat(run.isObject()).as("the older run itself, not null: %s", snapshot.data()).isTrue();
      assertThat(run.path("id").asText()).isEqualTo(older);
      assertThat(run.path("state").asText()).isEqualTo("needs_input");
      assertThat(run.path("reason").asText()).isEqualTo("cancelled by the owner");
      assertThat(run.path("finishedAt").isNull()).isFalse();
      assertThat(client.next().id()).isEqualTo("1");
      assertThat(client.next().event()).isEqualTo("done");
    }
    // The gateway asked task-service for that run as the owner, not for the task's latest run.
    assertThat(FixtureServices.SEEN_ACTORS.get(TaskSubjects.RUN_GET).accountId()).isEqualTo(ALICE);
  }

  @Test
  void anOlderRunOfAnotherOwnerOrOfAnotherTaskIsNotFound() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String older = FixtureServices.LATEST_RUNS.get(task.id()).id();
    FixtureServices.latest(finished(older, task.id(), "completed", null));
    FixtureServices.latest(finished(UUID.randomUUID().toString(), task.id(), "completed", null));
    TaskView otherTask = FixtureServices.seedTask(ALICE);

    given().auth().oauth2(token("u-bob")).when().get(events(task, older)).then().statusCode(404)
        .contentType("application/problem+json").body("code", equalTo("not_found"));
    given().auth().oauth2(token(ALICE)).when().get(events(otherTask, older)).then().statusCode(404)
        .body("code", equalTo("not_found"));
  }

  private static RunView finished(String id, String taskId, String state, String reason) {
    Instant now = Instant.now();
    return new RunView(id, taskId, RunState.fromWire(state), ProviderKind.OLLAMA, null, "qwen3", reason, 120, 40, 2, 1, now.minusSeconds(60),
        now.minusSeconds(59), now);
  }

  private static URI events(TaskView task, String run) {
    return URI.create("http://127.0.0.1:" + RestAssured.port + "/api/work/tasks/" + task.id() + "/runs/" + run + "/events");
  }

  private void publish(TaskView task, String run, Object... seqAndType) {
    for (int i = 0; i < seqAndType.length; i += 2) {
      long seq = ((Number) seqAndType[i]).longValue();
      RunEvent event = new RunEvent(task.id(), run, seq, RunEventType.fromWire((String) seqAndType[i + 1]), System.currentTimeMillis(),
          Map.of("text", "event " + seq));
      publisher.publish(Subjects.RUN_EVENTS, event, Actor.service(ServiceName.AGENT_RUNNER), task.id(), run)
          .await().atMost(Duration.ofSeconds(5));
    }
  }
}
