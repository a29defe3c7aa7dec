package dev.workcell.task.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
import dev.workcell.contracts.task.TaskApi.MessagePage;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.TaskApi.RunCancelled;
import dev.workcell.contracts.task.TaskApi.RunStarted;
import dev.workcell.contracts.task.TaskApi.StartRun;
import dev.workcell.contracts.task.TaskApi.TaskCreated;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.task.support.AdminWorkTest;
import dev.workcell.task.support.RunQueueFixture;
import dev.workcell.task.support.Sql;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class RunConcurrencyTest extends AdminWorkTest {

  @Inject
  Sql sql;

  @Inject
  RunQueueFixture runQueue;

  @Inject
  dev.workcell.task.support.RunEventsReader events;

  @Test
  void twentyConcurrentStartsLeaveExactlyOneActiveRun() {
    TaskCreated created = work.createTask(admin);
    String taskId = created.task().id();
    work.move(taskId, created.run().id(), "completed");

    List<Uni<Object>> starts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      starts.add(nats.request(TaskSubjects.RUN_START, new StartRun(taskId, "attempt " + i), admin,
              Duration.ofSeconds(30))
          .map(started -> (Object) started)
          .onFailure().recoverWithItem(failure -> failure));
    }
    List<Object> outcomes = Uni.join().all(starts).andCollectFailures().await().atMost(Duration.ofSeconds(60));

    List<RunStarted> won = outcomes.stream().filter(RunStarted.class::isInstance).map(RunStarted.class::cast).toList();
    List<Object> lost = outcomes.stream().filter(o -> !(o instanceof RunStarted)).toList();
    assertThat(won).hasSize(1);
    assertThat(lost).hasSize(19).allSatisfy(failure -> assertThat(failure)
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.RUN_ACTIVE)));
    assertThat(sql.list("select count(*) from runs where task_id = ?1 and state in ('preparing', 'running')",
        Long.class, UUID.fromString(taskId))).containsExactly(1L);
  }

  @Test
  void databaseRefusesASecondActiveRunWrittenAroundTheService() {
    TaskCreated created = work.createTask(admin);
    UUID taskId = UUID.fromString(created.task().id());

    Throwable refused = catchFailure(() -> sql.update("insert into runs (id, task_id, state, provider_kind, provider_id,"
        + " model) values (?1, ?2, 'running', 'ollama', 'ollama', 'm')", UUID.randomUUID(), taskId));

    assertThat(refused).isNotNull();
    assertThat(rootMessage(refused)).contains("runs_one_active_per_task");
  }

  @Test
  void startWhileARunIsActiveAnswersRunActive() {
    TaskCreated created = work.createTask(admin);

    assertThat(work.failure(TaskSubjects.RUN_START, new StartRun(created.task().id(), "again"), admin))
        .isEqualTo(ErrorCode.RUN_ACTIVE);
  }

  @Test
  void followUpRunContinuesTheSameConversation() {
    TaskCreated created = work.createTask(admin, "first instruction");
    String taskId = created.task().id();
    work.move(taskId, created.run().id(), "running");
    work.move(taskId, created.run().id(), "completed");

    RunStarted followUp = work.call(TaskSubjects.RUN_START, new StartRun(taskId, "second instruction"), admin);

    assertThat(followUp.run().id()).isNotEqualTo(created.run().id());
    // Both runs were handed to agent-runner's work queue once committed.
    assertThat(runQueue.queued(taskId, created.run().id())).isTrue();
    assertThat(runQueue.queued(taskId, followUp.run().id())).isTrue();
    assertThat(followUp.task().state()).isEqualTo(TaskState.PREPARING);
    MessagePage page = work.call(TaskSubjects.MESSAGE_PAGE, new PageMessages(taskId, null, 0), admin);
    assertThat(page.messages()).extracting(MessageView::content).containsExactly("first instruction", "second instruction");
    assertThat(page.messages()).extracting(MessageView::runId).containsExactly(created.run().id(), followUp.run().id());
  }

  @Test
  void runnerTransitionsMoveTheTaskAndAnEndedRunStaysEnded() throws Exception {
    TaskCreated created = work.createTask(admin);
    String taskId = created.task().id();
    String runId = created.run().id();

    work.move(taskId, runId, "running");
    assertThat(detail(taskId).task().state()).isEqualTo(TaskState.RUNNING);
    events.runnerEmits(taskId, runId, 1, "run_state", java.util.Map.of("state", "running"));
    events.runnerEmits(taskId, runId, 2, "usage", java.util.Map.of("round", 1));
    RunView done = work.move(taskId, runId, "needs_input");

    // task-service ends the live stream after the runner's last event: run_state, then done, once.
    var stream = events.untilDone(taskId, runId, Duration.ofSeconds(5));
    assertThat(stream).extracting(e -> e.seq()).containsExactly(1L, 2L, 3L, 4L);
    assertThat(stream.get(2).type()).isEqualTo(dev.workcell.contracts.run.RunEventType.RUN_STATE);
    assertThat(stream.get(3).type()).isEqualTo(dev.workcell.contracts.run.RunEventType.DONE);
    assertThat(stream.get(3).data()).containsEntry("state", "needs_input").containsEntry("reason", "test");

    assertThat(done.finishedAt()).isNotNull();
    TaskDetail detail = detail(taskId);
    assertThat(detail.task().state()).isEqualTo(TaskState.NEEDS_INPUT);
    assertThat(detail.task().unread()).isTrue();
    assertThat(work.failure(TaskSubjects.RUNNER_TRANSITION,
        new dev.workcell.contracts.task.RunnerApi.RunTransition(taskId, runId, RunState.COMPLETED, null), WorkClient.RUNNER))
        .isEqualTo(ErrorCode.CONFLICT);
    assertThat(work.failure(TaskSubjects.RUNNER_CLAIM,
        new dev.workcell.contracts.task.RunnerApi.ClaimRun(taskId, runId, "another-runner"), WorkClient.RUNNER))
        .as("an ended run is not claimed again").isEqualTo(ErrorCode.CONFLICT);
    assertThat(work.failure(TaskSubjects.RUNNER_TRANSITION,
        new dev.workcell.contracts.task.RunnerApi.RunTransition(taskId, runId, RunState.RUNNING, null), WorkClient.RUNNER))
        .as("a run becomes running only by its claim").isEqualTo(ErrorCode.INVALID_REQUEST);
    assertThat(work.call(TaskSubjects.SEEN, new TaskRef(taskId), admin)
        .unread()).isFalse();
  }

  @Test
  void cancelEndsTheActiveRunAndMidRunMessagesNeedAnActiveRun() {
    TaskCreated created = work.createTask(admin);
    String taskId = created.task().id();

    RunCancelled cancelled = work.call(TaskSubjects.RUN_CANCEL, new TaskRef(taskId), admin);

    assertThat(cancelled.run().state()).isEqualTo(RunState.NEEDS_INPUT);
    assertThat(cancelled.task().state()).isEqualTo(TaskState.NEEDS_INPUT);
    assertThat(work.failure(TaskSubjects.MESSAGE_POST, new PostMessage(taskId, "still there?"), admin))
        .isEqualTo(ErrorCode.NO_ACTIVE_RUN);
    assertThat(work.call(TaskSubjects.RUN_CANCEL, new TaskRef(taskId), admin).run().state())
        .isEqualTo(RunState.NEEDS_INPUT);
  }

  private TaskDetail detail(String taskId) {
    return work.call(TaskSubjects.GET, new TaskRef(taskId), admin);
  }

  private static Throwable catchFailure(Runnable action) {
    try {
      action.run();
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  private static String rootMessage(Throwable failure) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      text.append(t.getMessage()).append(" | ");
    }
    return text.toString();
  }
}
