package dev.workcell.sandbox.reconcile.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.admission.health.SafeModeReadinessCheck;
import dev.workcell.sandbox.admission.service.SafeMode;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.docker.client.DockerSandboxDriver;
import dev.workcell.sandbox.docker.client.DockerStreamsClient;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxNames;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TaskServiceFixture;
import dev.workcell.sandbox.testing.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

/** Startup reconciliation: orphans removed, known sandboxes stopped, safe mode until proven. */
@QuarkusTest
class StartupReconcilerTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  TaskServiceFixture knownTasks;

  @Inject
  DockerClient docker;

  @Inject
  StartupReconciler reconciler;

  @Inject
  SandboxDriver driver;

  @Inject
  NatsRequester requester;

  @Inject
  SandboxLifecycle lifecycle;

  @Inject
  SandboxSettings settings;

  @Inject
  SafeMode safeMode;

  @Test
  void anOrphanOfADeletedTaskIsRemovedWithItsVolume() {
    String orphan = "t-orphan-" + System.nanoTime();
    Map<String, String> labels = Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.TASK, orphan,
        SandboxLabels.OWNER, "ghost", SandboxLabels.INSTANCE, TestDocker.INSTANCE);
    docker.createVolumeCmd().withName(SandboxNames.volume(orphan)).withLabels(labels).exec();
    String id = docker.createContainerCmd("workcell/sandbox:dev").withName(SandboxNames.container(orphan)).withLabels(labels)
        .withEntrypoint("sleep", "infinity").exec().getId();
    docker.startContainerCmd(id).exec();

    StartupReconciler.Report report = reconciler.reconcileOnce();

    assertThat(report.removedContainers()).isPositive();
    assertThat(report.removedVolumes()).isPositive();
    assertThat(gone(() -> docker.inspectContainerCmd(id).exec())).isTrue();
    assertThat(gone(() -> docker.inspectVolumeCmd(SandboxNames.volume(orphan)).exec())).isTrue();
    assertThat(safeMode.active()).isFalse();
  }

  @Test
  void aRunningSandboxOfAKnownTaskIsStoppedAndKept() {
    SandboxRef ref = sandboxes.newTask("reconcile-owner");
    try {
      sandboxes.ensure(ref);
      reconciler.reconcileOnce();
      SandboxState state = sandboxes.call(SandboxSubjects.STATUS, ref);
      assertThat(state.state()).isEqualTo("stopped");
      assertThat(docker.inspectVolumeCmd(SandboxNames.volume(ref.taskId())).exec().getName()).isNotNull();
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void aRunningHomeIsStoppedAndNeverRemoved() {
    SandboxRef home = sandboxes.newHome("reconcile-home");
    try {
      SandboxState before = sandboxes.ensure(home);
      sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(home, "kept.txt", "kept", null, false));
      reconciler.reconcileOnce();
      SandboxState after = sandboxes.call(SandboxSubjects.STATUS, home);
      assertThat(after.state()).isEqualTo("stopped");
      assertThat(after.containerId()).isEqualTo(before.containerId());
      assertThat(docker.inspectVolumeCmd(before.volume()).exec().getName()).isEqualTo(before.volume());
      assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(home, "kept.txt")).content()).isEqualTo("kept");
    } finally {
      sandboxes.call(SandboxSubjects.STOP, home);
    }
  }

  @Test
  void anUnreachableEngineKeepsSafeMode() throws Exception {
    try (DockerClient dead = DockerStreamsClient.create("unix:///tmp/workcell-no-such-docker.sock")) {
      SafeMode isolated = new SafeMode();
      var deadDriver = new DockerSandboxDriver(dead, dead, settings, new RequestQueueBudget(4 << 20, 64 << 20));
      var attempt = new StartupReconciler(deadDriver, requester, isolated, lifecycle, settings);
      assertThatThrownBy(attempt::reconcileOnce).isInstanceOfSatisfying(WorkcellException.class,
          e -> assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE));
      assertThat(isolated.active()).isTrue();
      assertThat(isolated.reason()).contains("docker engine unreachable");
      assertThat(new SafeModeReadinessCheck(isolated).call().getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
      assertThatThrownBy(isolated::requireOff).isInstanceOfSatisfying(WorkcellException.class, e -> {
        assertThat(e.code()).isEqualTo(ErrorCode.SAFE_MODE);
        assertThat(e.code().httpStatus()).isEqualTo(503);
      });
    }
  }

  @Test
  void aSilentTaskServiceKeepsSafeModeAndRemovesNothing() {
    SandboxRef ref = sandboxes.shared();
    SafeMode isolated = new SafeMode();
    isolated.clear();
    var attempt = new StartupReconciler(driver, requester, isolated, lifecycle, settings);
    knownTasks.silent(true);
    try {
      assertThatThrownBy(attempt::reconcileOnce).isInstanceOf(WorkcellException.class);
    } finally {
      knownTasks.silent(false);
    }
    assertThat(isolated.active()).isTrue();
    assertThat(docker.inspectContainerCmd(SandboxNames.container(ref.taskId())).exec().getState().getRunning()).isTrue();
  }

  @Test
  void inSafeModeMutationsAnswerSafeMode() {
    SandboxRef ref = sandboxes.shared();
    safeMode.enter("test: cleanup not proven");
    try {
      var error = sandboxes.failure(SandboxSubjects.ENSURE, ref);
      assertThat(error.code()).isEqualTo(ErrorCode.SAFE_MODE);
      assertThat(sandboxes.call(SandboxSubjects.STATUS, ref).state()).isEqualTo("running");
    } finally {
      safeMode.clear();
    }
  }

  private static boolean gone(Runnable inspect) {
    try {
      inspect.run();
      return false;
    } catch (NotFoundException e) {
      return true;
    }
  }
}
