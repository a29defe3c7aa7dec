package dev.workcell.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StreamInfo;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The contract's streams exist after connect, and run events are stored with increasing sequences. */
class JetStreamTest {

  static RunEvent event(String task, String run, String type) {
    return new RunEvent(task, run, 0, RunEventType.fromWire(type), System.currentTimeMillis(), Map.of());
  }

  @Test
  void contractStreamsAreProvisionedAndEventsGetIncreasingSequences() throws Exception {
    Vertx vertx = Vertx.vertx();
    try (TestBus bus = new TestBus(vertx, ServiceName.AGENT_RUNNER.id())) {
      assertThat(bus.streams.ready()).isTrue();
      var management = bus.connection.connection().jetStreamManagement();
      StreamInfo requests = management.getStreamInfo(Streams.RUN_REQUESTS.name());
      assertThat(requests.getConfiguration().getRetentionPolicy()).isEqualTo(RetentionPolicy.WorkQueue);
      assertThat(management.getStreamInfo(Streams.RUN_EVENTS.name()).getConfiguration().getSubjects())
          .containsExactly("workcell.run.events.*.*");

      JetStreamPublisher publisher = new JetStreamPublisher(bus.connection, bus.codec);
      String task = UUID.randomUUID().toString();
      String run = UUID.randomUUID().toString();
      Actor runner = Actor.service(ServiceName.AGENT_RUNNER);
      long first = publisher.publish(Subjects.RUN_EVENTS, event(task, run, "run_state"), runner, task, run)
          .await().atMost(Duration.ofSeconds(5));
      long second = publisher.publish(Subjects.RUN_EVENTS, event(task, run, "done"), runner, task, run)
          .await().atMost(Duration.ofSeconds(5));
      assertThat(second).isGreaterThan(first);

      // Provisioning again (a reconnect, another service) changes nothing and fails nothing.
      bus.streams.provision(bus.connection.connection());
      assertThat(bus.streams.ready()).isTrue();
      assertThat(management.getStreamInfo(Streams.RUN_EVENTS.name()).getStreamState().getMsgCount()).isGreaterThanOrEqualTo(2);
    } finally {
      vertx.close();
    }
  }

  @Test
  void runEventSubjectsRefuseTokensThatWouldWidenTheSubject() {
    for (String bad : new String[] {"a.b", "*", ">", "", "a b"}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> Subjects.runEvents(bad, "r"))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(Map.of("ok", Subjects.runEvents("t-1", "r_2"))).containsValue("workcell.run.events.t-1.r_2");
  }
}
