package dev.workcell.sandbox.lifecycle.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.ListSandboxes;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxList;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.admission.service.RuntimeAdmission;
import dev.workcell.sandbox.reconcile.service.StartupReconciler;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxNames;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TaskServiceFixture;
import dev.workcell.sandbox.testing.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Start, reuse, drift, stop, recreate, delete and restart, against the real engine. */
@QuarkusTest
class SandboxLifecycleTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Inject
  SandboxSpecs specs;

  @Inject
  StartupReconciler reconciler;

  @Inject
  TaskServiceFixture taskService;

  @Inject
  SandboxLifecycle lifecycle;

  @Inject
  RuntimeAdmission admission;

  @Test
  void ensureReusesAVerifiedSandbox() {
    SandboxRef ref = sandboxes.shared();
    SandboxState first = sandboxes.ensure(ref);
    SandboxState second = sandboxes.ensure(ref);
    assertThat(second.containerId()).isEqualTo(first.containerId());
    assertThat(second.state()).isEqualTo("running");
    assertThat(sandboxes.call(SandboxSubjects.STATUS, ref).state()).isEqualTo("running");
  }

  @Test
  void driftOnTheEngineIsRecreatedAndTheWorkspaceKept() {
    SandboxRef ref = sandboxes.shared();
    write(ref, "drift.txt", "survives drift");
    String before = sandboxes.ensure(ref).containerId();
    // Someone loosened the memory limit behind sandbox-service's back (docker-java's update command
    // cannot serialise itself in 3.4.2, so the CLI does it).
    dockerCli("update", "--memory", "3g", "--memory-swap", "3g", before);
    String after = sandboxes.ensure(ref).containerId();
    assertThat(after).isNotEqualTo(before);
    assertThat(docker.inspectContainerCmd(after).exec().getHostConfig().getMemory()).isEqualTo(2L << 30);
    assertThat(read(ref, "drift.txt")).isEqualTo("survives drift");
  }

  @Test
  void aChangedPolicyAppliesAtRecreateAndATamperedPolicyLabelRecreates() {
    SandboxRef ref = sandboxes.newTask("policy-owner");
    try {
      taskService.policy(ref.taskId(), "1g", null, null, true);
      String first = sandboxes.ensure(ref).containerId();
      write(ref, "keep.txt", "kept");
      assertThat(docker.inspectContainerCmd(first).exec().getHostConfig().getMemory()).isEqualTo(1L << 30);

      // The admin edits the policy: a running sandbox keeps its own until it is recreated.
      taskService.policy(ref.taskId(), "768m", null, null, true);
      assertThat(sandboxes.ensure(ref).containerId()).isEqualTo(first);
      String resized = sandboxes.call(SandboxSubjects.RECREATE, ref).containerId();
      assertThat(resized).isNotEqualTo(first);
      assertThat(docker.inspectContainerCmd(resized).exec().getHostConfig().getMemory()).isEqualTo(768L << 20);

      // A container with every setting right but a forged policy-hash label is not reused.
      var inspect = docker.inspectContainerCmd(resized).exec();
      docker.removeContainerCmd(resized).withForce(true).exec();
      Map<String, String> labels = new HashMap<>(inspect.getConfig().getLabels());
      labels.put(SandboxLabels.POLICY_HASH, "0".repeat(64));
      String forged = docker.createContainerCmd(inspect.getConfig().getImage())
          .withName(SandboxNames.container(ref.taskId())).withLabels(labels)
          .withUser(inspect.getConfig().getUser()).withWorkingDir("/workspace").withEntrypoint("sleep", "infinity")
          .withHostConfig(inspect.getHostConfig()).exec().getId();
      String reused = sandboxes.ensure(ref).containerId();
      assertThat(reused).isNotEqualTo(forged);
      assertThat(docker.inspectContainerCmd(reused).exec().getConfig().getLabels().get(SandboxLabels.POLICY_HASH))
          .isEqualTo(inspect.getConfig().getLabels().get(SandboxLabels.POLICY_HASH));
      assertThat(read(ref, "keep.txt")).isEqualTo("kept");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void capabilitiesOtherThanCelldsThreeAreDriftAndRecreated() {
    SandboxRef ref = sandboxes.newTask("caps-owner");
    try {
      sandboxes.ensure(ref);
      write(ref, "keep.txt", "kept");
      for (Capability[] caps : List.of(new Capability[] {Capability.KILL, Capability.SETGID, Capability.SETUID, Capability.SYS_PTRACE},
          new Capability[] {Capability.SETGID, Capability.SETUID})) {
        var inspect = docker.inspectContainerCmd(sandboxes.ensure(ref).containerId()).exec();
        docker.removeContainerCmd(inspect.getId()).withForce(true).exec();
        String forged = docker.createContainerCmd(inspect.getConfig().getImage())
            .withName(SandboxNames.container(ref.taskId())).withLabels(inspect.getConfig().getLabels())
            .withUser(inspect.getConfig().getUser()).withWorkingDir("/workspace").withEntrypoint("sleep", "infinity")
            .withHostConfig(inspect.getHostConfig().withCapAdd(caps)).exec().getId();
        String reused = sandboxes.ensure(ref).containerId();
        assertThat(reused).as("cap-add %s", List.of(caps)).isNotEqualTo(forged);
        assertThat(docker.inspectContainerCmd(reused).exec().getHostConfig().getCapAdd())
            .containsExactlyInAnyOrder(Capability.KILL, Capability.SETGID, Capability.SETUID);
        assertThat(read(ref, "keep.txt")).isEqualTo("kept");
      }
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void taskServiceDecidesWhetherASandboxMayExist() {
    SandboxRef unknown = new SandboxRef("t-unknown-" + System.nanoTime(), "anyone");
    assertThat(sandboxes.failure(SandboxSubjects.ENSURE, unknown).code()).isEqualTo(ErrorCode.NOT_FOUND);
    SandboxRef ref = sandboxes.newTask("real-owner");
    assertThat(sandboxes.failure(SandboxSubjects.ENSURE, new SandboxRef(ref.taskId(), "impostor")).code()).isEqualTo(ErrorCode.NOT_FOUND);
    taskService.decommissioning(ref.taskId());
    assertThat(sandboxes.failure(SandboxSubjects.FILES_LIST, new ListFiles(ref, "")).code())
        .isEqualTo(ErrorCode.TASK_DECOMMISSIONING);
    assertThat(gone(() -> docker.inspectContainerCmd(SandboxNames.container(ref.taskId())).exec())).isTrue();
    assertThat(gone(() -> docker.inspectContainerCmd(SandboxNames.container(unknown.taskId())).exec())).isTrue();
  }

  @Test
  void theWorkspaceSurvivesStopRecreateAndARestart() {
    SandboxRef ref = sandboxes.newTask("persist-owner");
    try {
      sandboxes.ensure(ref);
      write(ref, "notes/persist.txt", "still here");

      SandboxState stopped = sandboxes.call(SandboxSubjects.STOP, ref);
      assertThat(stopped.state()).isEqualTo("stopped");
      assertThat(sandboxes.call(SandboxSubjects.STATUS, ref).state()).isEqualTo("stopped");
      assertThat(read(ref, "notes/persist.txt")).isEqualTo("still here");

      String before = sandboxes.call(SandboxSubjects.STATUS, ref).containerId();
      SandboxState recreated = sandboxes.call(SandboxSubjects.RECREATE, ref);
      assertThat(recreated.containerId()).isNotEqualTo(before);
      assertThat(read(ref, "notes/persist.txt")).isEqualTo("still here");

      // What a restart of sandbox-service does: forget everything in memory, stop sandboxes of known tasks.
      reconciler.reconcileOnce();
      assertThat(sandboxes.call(SandboxSubjects.STATUS, ref).state()).isEqualTo("stopped");
      assertThat(read(ref, "notes/persist.txt")).isEqualTo("still here");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void anIdleSandboxIsStoppedAndItsSlotFreed() {
    SandboxRef ref = sandboxes.newTask("idle-owner");
    try {
      sandboxes.ensure(ref);
      assertThat(admission.holds(ref.taskId())).isTrue();
      assertThat(lifecycle.stopIfIdle(ref.taskId(), 60_000)).as("active within the last minute").isFalse();
      assertThat(lifecycle.stopIfIdle(ref.taskId(), 0)).isTrue();
      assertThat(admission.holds(ref.taskId())).isFalse();
      assertThat(sandboxes.call(SandboxSubjects.STATUS, ref).state()).isEqualTo("stopped");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void aSandboxWithARunningBackgroundProcessIsNotIdle() {
    SandboxRef ref = sandboxes.newTask("busy-owner");
    try {
      ProcessView sleeper = sandboxes.call(SandboxSubjects.PROCESS_START,
          new StartProcess(ref, "sleep 300", null, null, null, null));
      assertThat(lifecycle.stopIfIdle(ref.taskId(), 0)).as("a background process keeps it busy").isFalse();
      assertThat(sandboxes.call(SandboxSubjects.STATUS, ref).state()).isEqualTo("running");
      sandboxes.call(SandboxSubjects.PROCESS_KILL, new KillProcess(ref, sleeper.id(), true));
      assertThat(lifecycle.stopIfIdle(ref.taskId(), 0)).isTrue();
      assertThat(sandboxes.call(SandboxSubjects.STATUS, ref).state()).isEqualTo("stopped");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void deleteRemovesContainerAndVolume() {
    SandboxRef ref = sandboxes.newTask("delete-owner");
    sandboxes.ensure(ref);
    write(ref, "gone.txt", "bye");
    Path socketDir = specs.celldSocketDir(SandboxNames.container(ref.taskId())).orElseThrow();
    assertThat(socketDir).isDirectory();
    SandboxState deleted = sandboxes.call(SandboxSubjects.DELETE, ref);
    assertThat(deleted.state()).isEqualTo("absent");
    assertThat(gone(() -> docker.inspectContainerCmd(SandboxNames.container(ref.taskId())).exec())).isTrue();
    assertThat(gone(() -> docker.inspectVolumeCmd(SandboxNames.volume(ref.taskId())).exec())).isTrue();
    assertThat(socketDir).as("celld's socket directory goes with its sandbox").doesNotExist();
  }

  @Test
  void aNameHeldByAForeignContainerIsNeverReusedOrRemoved() {
    SandboxRef ref = sandboxes.newTask("victim-owner");
    String foreign = docker.createContainerCmd("workcell/sandbox:dev")
        .withName(SandboxNames.container(ref.taskId()))
        .withLabels(Map.of(TestDocker.TEST_LABEL, "true", SandboxLabels.MANAGED, "true",
            SandboxLabels.TASK, "another-task", SandboxLabels.OWNER, ref.ownerId(), SandboxLabels.INSTANCE, TestDocker.INSTANCE))
        .withEntrypoint("sleep", "infinity").exec().getId();
    try {
      assertThat(sandboxes.failure(SandboxSubjects.ENSURE, ref).code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT);
      assertThat(sandboxes.failure(SandboxSubjects.DELETE, ref).code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT);
      assertThat(sandboxes.failure(SandboxSubjects.STOP, ref).code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT);
      assertThat(docker.inspectContainerCmd(foreign).exec().getId()).isEqualTo(foreign);
    } finally {
      docker.removeContainerCmd(foreign).withForce(true).exec();
    }
  }

  @Test
  void aWorkspaceVolumeOfAnotherOwnerIsRefused() {
    SandboxRef ref = sandboxes.newTask("volume-owner");
    docker.createVolumeCmd().withName(SandboxNames.volume(ref.taskId()))
        .withLabels(Map.of(TestDocker.TEST_LABEL, "true", SandboxLabels.MANAGED, "true", SandboxLabels.TASK, ref.taskId(),
            SandboxLabels.OWNER, "somebody-else", SandboxLabels.INSTANCE, TestDocker.INSTANCE))
        .exec();
    assertThat(sandboxes.failure(SandboxSubjects.ENSURE, ref).code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT);
    assertThat(sandboxes.failure(SandboxSubjects.DELETE, ref).code()).isEqualTo(ErrorCode.OWNERSHIP_CONFLICT);
    assertThat(docker.inspectVolumeCmd(SandboxNames.volume(ref.taskId())).exec().getName()).isNotNull();
    docker.removeVolumeCmd(SandboxNames.volume(ref.taskId())).exec();
  }

  @Test
  void listShowsAUserOnlyItsOwnSandboxes() {
    SandboxRef ref = sandboxes.shared();
    SandboxList mine = sandboxes.call(SandboxSubjects.LIST, new ListSandboxes(null), new Actor(ref.ownerId(), Actor.Role.USER));
    assertThat(mine.sandboxes()).extracting(SandboxState::taskId).contains(ref.taskId());
    SandboxList theirs = sandboxes.call(SandboxSubjects.LIST, new ListSandboxes(ref.ownerId()), new Actor("bob", Actor.Role.USER));
    assertThat(theirs.sandboxes()).extracting(SandboxState::taskId).doesNotContain(ref.taskId());
  }

  private void write(SandboxRef ref, String path, String content) {
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, path, content, null, true));
  }

  private String read(SandboxRef ref, String path) {
    return sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, path)).content();
  }

  private static void dockerCli(String... args) {
    try {
      var command = new ArrayList<>(List.of("docker"));
      command.addAll(List.of(args));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      assertThat(process.waitFor()).as(output).isZero();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
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
