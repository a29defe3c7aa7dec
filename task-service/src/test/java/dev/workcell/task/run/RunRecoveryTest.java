package dev.workcell.task.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.PreviewApi.SetPreview;
import dev.workcell.contracts.task.PreviewView;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.RunnerApi.RunSpec;
import dev.workcell.contracts.task.TaskApi.RunStarted;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.run.service.RunRecovery;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@QuarkusTest
class RunRecoveryTest {

  @Inject
  NatsRequester nats;

  @Inject
  RunRecovery recovery;

  @Test
  void restartFailsActiveRunsClearsPreviewsAndAllowsANewRun() {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated created = work.createTask(owner);
    String taskId = created.task().id();
    work.move(taskId, created.run().id(), "running");
    work.call(TaskSubjects.PREVIEW_SET, new SetPreview(taskId, "starting", 40123, "npm run dev"), PreviewView.class,
        WorkClient.RUNNER);
    TaskCreated idle = work.createTask(owner);
    work.move(idle.task().id(), idle.run().id(), "completed");

    RunRecovery.Recovered recovered = recovery.recover().await().atMost(Duration.ofSeconds(30));

    assertThat(recovered.failedRuns()).isGreaterThanOrEqualTo(1);
    RunView run = work.call(TaskSubjects.RUNNER_RUN, new RunRef(taskId, created.run().id()), RunSpec.class,
        WorkClient.RUNNER).run();
    assertThat(run.state()).isEqualTo("failed");
    assertThat(run.reason()).isEqualTo(RunRecovery.REASON);
    assertThat(run.finishedAt()).isNotNull();
    assertThat(work.call(TaskSubjects.GET, new TaskRef(taskId), TaskDetail.class, owner).task().state()).isEqualTo("failed");
    assertThat(work.call(TaskSubjects.PREVIEW_GET, new TaskRef(taskId), PreviewView.class, owner).state())
        .isEqualTo("stopped");
    // A finished task is left as it was, and the failed one takes a follow-up run.
    assertThat(work.call(TaskSubjects.GET, new TaskRef(idle.task().id()), TaskDetail.class, owner).task().state())
        .isEqualTo("completed");
    assertThat(work.call(TaskSubjects.RUN_START, new StartRun(taskId, "try again"), RunStarted.class, owner).run().state())
        .isEqualTo("preparing");
  }
}
