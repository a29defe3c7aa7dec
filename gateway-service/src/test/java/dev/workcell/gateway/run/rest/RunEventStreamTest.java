package dev.workcell.gateway.run.rest;

import static dev.workcell.gateway.fixture.FixtureServices.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.gateway.fixture.FixtureServices;
import dev.workcell.messaging.JetStreamPublisher;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Live run events over SSE, from real JetStream: snapshot, order, resume, fan-out and the end. */
@QuarkusTest
class RunEventStreamTest {

  static final String ALICE = "u-alice";

  @Inject
  JetStreamPublisher publisher;

  @Test
  void aSnapshotComesFirstThenEventsInOrderWithHeartbeatsUntilDone() throws Exception {
    TaskView task = FixtureServices.seedTask(ALICE);
    String run = runOf(task);
    publish(task, run, 1, "run_state", 2, "assistant_delta", 3, "tool_call");
    try (SseClient client = SseClient.open(events(task, run, ""), token(ALICE), null)) {
      assertThat(client.status()).isEqualTo(200);
      SseClient.Frame snapshot = client.next();
      assertThat(snapshot.event()).isEqualTo("snapshot");
      assertThat(snapshot.id()).isEqualTo("0");
      assertThat(snapshot.data()).contains("\"runId\":\"" + run + "\"").contains("\"state\":\"running\"");
      assertThat(ids(client, 3)).containsExactly("1", "2", "3");

      Thread.sleep(1_500); // idle longer than the test profile's 1 s heartbeat
      assertThat(client.heartbeats).isPositive();

      publish(task, run, 4, "assistant_delta", 5, "done");
      SseClient.Frame four = client.next();
      assertThat(four.event()).isEqualTo("assistant_delta");
      assertThat(four.data()).contains("\"seq\":4");
      SseClient.Frame done = client.next();
      assertThat(done.event()).isEqualTo("done");
      assertThat(done.id()).isEqualTo("5");
      assertThat(client.endsWithin(Duration.ofSeconds(5))).as("the stream ends after done").isTrue();
    }
  }

  @Test
  void resumingAfterNContinuesWithNPlusOne() throws Exception {
    TaskView task = FixtureServices.seedTask(ALICE);
    String run = runOf(task);
    publish(task, run, 1, "run_state", 2, "assistant_delta", 3, "assistant_delta", 4, "usage");
    try (SseClient client = SseClient.open(events(task, run, "?after=2"), token(ALICE), null)) {
      SseClient.Frame snapshot = client.next();
      assertThat(snapshot.event()).isEqualTo("snapshot");
      assertThat(snapshot.id()).isEqualTo("2");
      assertThat(ids(client, 2)).containsExactly("3", "4");
    }
    // A browser reconnecting sends Last-Event-ID instead.
    try (SseClient client = SseClient.open(events(task, run, ""), token(ALICE), "3")) {
      assertThat(client.next().id()).isEqualTo("3");
      assertThat(client.next().id()).isEqualTo("4");
    }
  }

  @Test
  void twoClientsOfOneRunSeeTheSameSequence() throws Exception {
    TaskView task = FixtureServices.seedTask(ALICE);
    String run = runOf(task);
    publish(task, run, 1, "run_state");
    try (SseClient first = SseClient.open(events(task, run, ""), token(ALICE), null);
        SseClient second = SseClient.open(events(task, run, ""), token(ALICE), null)) {
      first.next();
      second.next();
      publish(task, run, 2, "reasoning_delta", 3, "assistant_delta", 4, "tool_result", 5, "done");
      List<String> seenByFirst = ids(first, 5);
      List<String> seenBySecond = ids(second, 5);
      assertThat(seenByFirst).containsExactly("1", "2", "3", "4", "5");
      assertThat(seenBySecond).isEqualTo(seenByFirst);
      assertThat(first.endsWithin(Duration.ofSeconds(5))).isTrue();
      assertThat(second.endsWithin(Duration.ofSeconds(5))).isTrue();
    }
  }

  @Test
  void aClientResumingAfterTheEndGetsTheSnapshotAndTheEnd() throws Exception {
    TaskView task = FixtureServices.seedTask(ALICE);
    String run = runOf(task);
    publish(task, run, 1, "run_state", 2, "done");
    try (SseClient client = SseClient.open(events(task, run, "?after=2"), token(ALICE), null)) {
      assertThat(client.next().event()).isEqualTo("snapshot");
      assertThat(client.endsWithin(Duration.ofSeconds(5))).isTrue();
    }
  }

  @Test
  void aClientThatStaysFarBehindIsDisconnected() throws Exception {
    TaskView task = FixtureServices.seedTask(ALICE);
    String run = runOf(task);
    int events = 200;
    try (SseClient client = SseClient.stalled(events(task, run, ""), token(ALICE))) {
      // 200 x 100 kB: far more than the 1 MB backlog limit plus what the socket buffers hold.
      String chunk = "y".repeat(100_000);
      for (int seq = 1; seq <= events; seq++) {
        RunEvent event = new RunEvent(task.id(), run, seq, RunEventType.ASSISTANT_DELTA, System.currentTimeMillis(), Map.of("text", chunk));
        publisher.publish(Subjects.RUN_EVENTS, event, Actor.service(ServiceName.AGENT_RUNNER), task.id(), run)
            .await().atMost(Duration.ofSeconds(5));
      }
      Thread.sleep(5_000); // longer than the test profile's 2 s allowed lag
      client.startReading();
      int received = client.countUntilEnd(Duration.ofSeconds(30));
      // The stream ended although no done was published, before every event reached the client.
      assertThat(received).isLessThan(events + 1);
    }
  }

  @Test
  void aReaderThatKeepsUpGetsEveryLargeEventInOrder() throws Exception {
    TaskView task = FixtureServices.seedTask(ALICE);
    String run = runOf(task);
    int events = 100;
    String chunk = "z".repeat(100_000);
    try (SseClient client = SseClient.open(events(task, run, ""), token(ALICE), null)) {
      assertThat(client.next().event()).isEqualTo("snapshot");
      // 10 MB in a burst: the stream pauses and resumes JetStream delivery as the client drains.
      for (int seq = 1; seq <= events; seq++) {
        String type = seq == events ? "done" : "assistant_delta";
        RunEvent event = new RunEvent(task.id(), run, seq, RunEventType.fromWire(type), System.currentTimeMillis(), Map.of("text", chunk));
        publisher.publish(Subjects.RUN_EVENTS, event, Actor.service(ServiceName.AGENT_RUNNER), task.id(), run)
            .await().atMost(Duration.ofSeconds(5));
      }
      List<String> ids = ids(client, events);
      assertThat(ids).containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, events).mapToObj(Integer::toString).toList());
      assertThat(client.endsWithin(Duration.ofSeconds(5))).isTrue();
    }
  }

  @Test
  void anotherOwnersRunAndAnUnknownRunAreNotFound() {
    TaskView task = FixtureServices.seedTask(ALICE);
    String run = runOf(task);
    given().auth().oauth2(token("u-bob")).when().get(events(task, run, "")).then().statusCode(404)
        .contentType("application/problem+json").body("code", equalTo("not_found"));
    given().auth().oauth2(token(ALICE)).when().get(events(task, "no-such-run", "")).then().statusCode(404)
        .body("code", equalTo("not_found"));
  }

  private static String runOf(TaskView task) {
    return FixtureServices.LATEST_RUNS.get(task.id()).id();
  }

  private static URI events(TaskView task, String run, String query) {
    return URI.create("http://127.0.0.1:" + RestAssured.port + "/api/work/tasks/" + task.id() + "/runs/" + run + "/events" + query);
  }

  private static List<String> ids(SseClient client, int count) throws InterruptedException {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(client.next().id());
    }
    return ids;
  }

  /** Publishes (seq, type) pairs as agent-runner would. */
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
