package dev.workcell.task.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.TaskApi.GetRun;
import dev.workcell.contracts.task.TaskApi.RunDetail;
import dev.workcell.contracts.task.TaskApi.RunStarted;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Issue 5: the owner reads any run of a task by id (a live stream of an older run shows how it ended). */
@QuarkusTest
class RunReadTest {

  @Inject
  NatsRequester nats;

  @Test
  void theOwnerReadsAnOlderRunWithItsFinalStateAndTheCurrentTask() {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    TaskCreated created = work.createTask(owner);
    String taskId = created.task().id();
    String first = created.run().id();
    work.move(taskId, first, "running");
    work.move(taskId, first, "completed");
    RunStarted followUp = work.call(TaskSubjects.RUN_START, new StartRun(taskId, "and now the footer"),
        owner);

    RunDetail older = work.call(TaskSubjects.RUN_GET, new GetRun(taskId, first), owner);

    assertThat(older.run().id()).isEqualTo(first);
    assertThat(older.run().state()).isEqualTo(RunState.COMPLETED);
    assertThat(older.run().finishedAt()).isNotNull();
    assertThat(older.task().id()).isEqualTo(taskId);
    assertThat(older.task().state()).as("the task follows its latest run").isEqualTo(TaskState.PREPARING);
    RunDetail latest = work.call(TaskSubjects.RUN_GET, new GetRun(taskId, followUp.run().id()), owner);
    assertThat(latest.run().state()).isEqualTo(RunState.PREPARING);
  }

  @Test
  void anotherOwnersRunAnotherTasksRunAndMalformedIdsAreNotFound() {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    Actor otherAdmin = work.admin();
    TaskCreated created = work.createTask(owner);
    TaskCreated second = work.createTask(owner, "another task of the same owner");
    String taskId = created.task().id();
    String runId = created.run().id();

    assertThat(work.failure(TaskSubjects.RUN_GET, new GetRun(taskId, runId), otherAdmin))
        .as("an admin reads no other account's run").isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(work.failure(TaskSubjects.RUN_GET, new GetRun(second.task().id(), runId), owner))
        .as("a run is found only under its own task").isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(work.failure(TaskSubjects.RUN_GET, new GetRun(taskId, UUID.randomUUID().toString()), owner))
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(work.failure(TaskSubjects.RUN_GET, new GetRun(taskId, "not-a-run"), owner)).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(work.failure(TaskSubjects.RUN_GET, new GetRun(null, runId), owner)).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(work.failure(TaskSubjects.RUN_GET, new GetRun(taskId, runId), WorkClient.RUNNER))
        .as("a service is no owner").isEqualTo(ErrorCode.FORBIDDEN);
    // The owner still reads it.
    assertThat(work.call(TaskSubjects.RUN_GET, new GetRun(taskId, runId), owner).run().id())
        .isEqualTo(runId);
  }
}
