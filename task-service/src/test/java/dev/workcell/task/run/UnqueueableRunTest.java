package dev.workcell.task.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Streams;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run whose request cannot be put on the work queue is failed at once, never left preparing or running. */
@QuarkusTest
@TestProfile(UnqueueableRunTest.NoQueue.class)
class UnqueueableRunTest {

  /**
   * The service provisions no streams on the profile's fresh private NATS, so no JetStream stream
   * covers the run-request subject: every publish fails.
   */
  public static class NoQueue implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.nats.provision-streams", "false",
          "workcell.task.recover-at-start", "false", "workcell.task.lease-sweep-interval", "0s");
    }
  }

  @Inject
  NatsRequester nats;

  @Inject
  NatsConnection connection;

  @Test
  void aTaskWhoseRunCannotBeQueuedAnswersServiceUnavailableAndItsRunIsFailed() throws Exception {
    assertThat(connection.connection().jetStreamManagement().getStreamNames())
        .as("the premise: no stream takes run requests").doesNotContain(Streams.RUN_REQUESTS.name());
    WorkClient work = new WorkClient(nats);
    Actor owner = work.account(Actor.Role.USER);

    ErrorCode refused = work.failure(TaskSubjects.CREATE,
        new CreateTask("unqueued", "Build a page", ProviderKind.OLLAMA, "ollama", "qwen3:8b", null), owner);

    assertThat(refused).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
    TaskView task = work.call(TaskSubjects.LIST, new ListTasks(), owner).tasks().getFirst();
    TaskDetail detail = work.call(TaskSubjects.GET, new TaskRef(task.id()), owner);
    assertThat(detail.task().state()).isEqualTo(TaskState.FAILED);
    assertThat(detail.latestRun().state()).isEqualTo(RunState.FAILED);
    assertThat(detail.latestRun().reason()).contains("could not be queued");
    assertThat(detail.latestRun().finishedAt()).isNotNull();
  }
}
