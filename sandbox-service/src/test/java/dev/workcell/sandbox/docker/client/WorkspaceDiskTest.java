package dev.workcell.sandbox.docker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectVolumeResponse;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.DiskUsage;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.contracts.task.PolicyView;
import dev.workcell.sandbox.lifecycle.service.WorkspaceDiskMetrics;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxNames;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TaskServiceFixture;
import dev.workcell.sandbox.testing.TestDocker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bounded workspaces (decision 0010) on the real engine and image: a volume is a loop-mounted ext4
 * image of its policy's size, writing past it is ENOSPC inside that sandbox only (a file write is
 * {@code workspace_full}), the host's disk gives no more than the image, use is reported, an
 * unmounted disk is mounted again before its sandbox starts, and deleting the task deletes the image.
 */
@QuarkusTest
class WorkspaceDiskTest {

  private static final long SIZE = 64L << 20;

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Inject
  TaskServiceFixture taskService;

  @Inject
  ObjectMapper json;

  @Inject
  WorkspaceDiskMetrics metrics;

  @Inject
  MeterRegistry registry;

  @Test
  void aFullWorkspaceIsEnospcInThatSandboxOnlyAndItsDiskGoesWithTheTask() throws Exception {
    SandboxRef small = sandboxes.newTask("disk-owner");
    SandboxRef neighbour = sandboxes.newTask("disk-owner");
    String volume = SandboxNames.volume(small.taskId());
    Path dir = Path.of(TestDocker.DISK_ROOT, TestDocker.INSTANCE, volume);
    try {
      taskService.policy(small.taskId(), policy("64m"));
      long created = System.nanoTime();
      assertThat(sandboxes.ensure(small).state()).isEqualTo("running");
      Log.infof("bounded sandbox (64m disk) created and running in %d ms", (System.nanoTime() - created) / 1_000_000);

      InspectVolumeResponse inspect = docker.inspectVolumeCmd(volume).exec();
      assertThat(inspect.getLabels()).containsEntry(WorkspaceDisks.SIZE_LABEL, Long.toString(SIZE))
          .containsEntry(SandboxLabels.TASK, small.taskId());
      assertThat(inspect.getOptions()).containsEntry("device", dir.resolve("mnt/data").toString()).containsEntry("o", "bind");
      assertThat(mounted(dir.resolve("mnt"))).isTrue();

      long freeBefore = Files.getFileStore(Path.of(TestDocker.DISK_ROOT)).getUsableSpace();
      CommandResult full = run(small, "dd if=/dev/zero of=big bs=1M count=74; echo exit=$?; df -B1 --output=size,used,avail . | tail -1");
      long freeAfter = Files.getFileStore(Path.of(TestDocker.DISK_ROOT)).getUsableSpace();
      long allocated = allocatedBytes(dir.resolve("disk.img"));
      Log.infof("dd of 74 MB into a 64 MB workspace: %s / %s; host free space %d -> %d (delta %d bytes), image allocates %d bytes",
          full.stdout().strip().replace('\n', ' '), full.stderr().strip().replace('\n', ' '), freeBefore, freeAfter,
          freeBefore - freeAfter, allocated);
      assertThat(full.stderr()).contains("No space left on device");
      assertThat(full.stdout()).doesNotContain("exit=0");
      // What the host's disk gave the workspace: never more than the image (the free-space delta above
      // is logged only: other processes share that disk).
      assertThat(allocated).isLessThanOrEqualTo(SIZE);
      // The file tools say so with a code of their own, not as an internal error (ext4 hands back a
      // few hundred kB of dd's reservations once it ends, so the file is larger than that).
      WorkcellException noRoom = sandboxes.failure(SandboxSubjects.FILES_WRITE,
          new WriteFile(small, "notes.txt", "x".repeat(1_500_000), null, true));
      assertThat(noRoom.code()).isEqualTo(ErrorCode.WORKSPACE_FULL);
      assertThat(noRoom.code().httpStatus()).isEqualTo(507);

      assertThat(sandboxes.ensure(neighbour).state()).isEqualTo("running");
      CommandResult other = run(neighbour, "dd if=/dev/zero of=ten bs=1M count=10 && sync && echo wrote");
      assertThat(other.stdout()).as(other.stderr()).contains("wrote");
      assertThat(run(small, "rm big && echo ok >after-full && cat after-full").stdout()).isEqualTo("ok\n");

      SandboxState status = sandboxes.call(SandboxSubjects.STATUS, small);
      DiskUsage disk = status.disk();
      assertThat(disk.bounded()).isTrue();
      assertThat(disk.sizeBytes()).isBetween(SIZE / 2, SIZE);
      assertThat(disk.usedBytes()).isBetween(0L, SIZE / 4);
      assertThat(disk.measuredAt()).isNotNull();
      assertThat(run(small, "dd if=/dev/zero of=half bs=1M count=32 && sync").exitCode()).isZero();
      assertThat(sandboxes.call(SandboxSubjects.STATUS, small).disk().usedBytes()).isGreaterThan(30L << 20);

      assertThat(metrics.sweep()).isGreaterThanOrEqualTo(2);
      Gauge used = registry.find("workcell.sandbox.disk.used").tag("volume", volume).tag("kind", "task").gauge();
      Gauge size = registry.find("workcell.sandbox.disk.size").tag("volume", volume).gauge();
      assertThat(used.value()).isGreaterThan(30L << 20);
      assertThat(size.value()).isEqualTo((double) disk.sizeBytes());

      sandboxes.call(SandboxSubjects.DELETE, small);
      assertThat(Files.exists(dir)).isFalse();
      assertThat(mounted(dir.resolve("mnt"))).isFalse();
      assertThat(metrics.sweep()).isGreaterThanOrEqualTo(1);
      assertThat(registry.find("workcell.sandbox.disk.used").tag("volume", volume).gauge()).isNull();
    } finally {
      sandboxes.deleteQuietly(small);
      sandboxes.deleteQuietly(neighbour);
    }
  }

  @Test
  void aDiskThatIsNotMountedNeverTakesTheHostsDiskAndIsMountedAgainAtStart() throws Exception {
    SandboxRef ref = sandboxes.newTask("disk-owner");
    Path dir = Path.of(TestDocker.DISK_ROOT, TestDocker.INSTANCE, SandboxNames.volume(ref.taskId()));
    try {
      taskService.policy(ref.taskId(), policy("32m"));
      sandboxes.ensure(ref);
      assertThat(run(ref, "echo kept >note && sync && cat note").stdout()).isEqualTo("kept\n");
      sandboxes.call(SandboxSubjects.STOP, ref);

      // As after a reboot: the loop mount is gone, and with it the directory the volume binds.
      assertThat(new ProcessBuilder("umount", dir.resolve("mnt").toString()).inheritIO().start().waitFor()).isZero();
      assertThat(Files.exists(dir.resolve("mnt/data"))).isFalse();
      assertThat(Files.exists(dir.resolve("disk.img"))).isTrue();
      // Fail closed: the engine cannot bind what is not there, so nothing lands on the host's own disk.
      assertThatThrownBy(() -> docker.startContainerCmd(SandboxNames.container(ref.taskId())).exec())
          .hasMessageContaining("no such file or directory");
      assertThat(sandboxes.call(SandboxSubjects.STATUS, ref).disk().bounded()).isTrue();

      assertThat(sandboxes.ensure(ref).state()).isEqualTo("running");
      assertThat(mounted(dir.resolve("mnt"))).isTrue();
      CommandResult after = run(ref, "cat note; df -B1 --output=size . | tail -1");
      assertThat(after.stdout()).startsWith("kept\n");
      assertThat(Long.parseLong(after.stdout().lines().skip(1).findFirst().orElseThrow().strip())).isLessThanOrEqualTo(32L << 20);
    } finally {
      sandboxes.deleteQuietly(ref);
    }
    assertThat(Files.exists(dir)).isFalse();
  }

  @Test
  void aVolumeFromBeforeBoundedDisksKeepsWorkingAndSaysItIsUnbounded() {
    SandboxRef ref = sandboxes.newTask("disk-owner");
    String volume = SandboxNames.volume(ref.taskId());
    try {
      Map<String, String> labels = new HashMap<>();
      labels.put(SandboxLabels.MANAGED, "true");
      labels.put(SandboxLabels.INSTANCE, TestDocker.INSTANCE);
      labels.put(SandboxLabels.TASK, ref.taskId());
      labels.put(SandboxLabels.OWNER, ref.ownerId());
      docker.createVolumeCmd().withName(volume).withDriver("local").withLabels(labels).exec();

      sandboxes.ensure(ref);
      assertThat(run(ref, "echo legacy >f && cat f").stdout()).isEqualTo("legacy\n");
      DiskUsage disk = sandboxes.call(SandboxSubjects.STATUS, ref).disk();
      assertThat(disk).isEqualTo(DiskUsage.unbounded());
      assertThat(Files.exists(Path.of(TestDocker.DISK_ROOT, TestDocker.INSTANCE, volume))).isFalse();
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  private PolicyView policy(String workspaceSize) {
    Map<String, Object> fields = new HashMap<>();
    fields.put("id", "policy-disk");
    fields.put("name", "disk policy");
    fields.put("workspaceSize", workspaceSize);
    fields.put("networkEnabled", false);
    return json.convertValue(fields, PolicyView.class);
  }

  private CommandResult run(SandboxRef ref, String command) {
    return sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, command, 60));
  }

  private static boolean mounted(Path dir) throws IOException {
    String target = " " + dir + " ";
    return Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8).stream().anyMatch(line -> line.contains(target));
  }

  /** What the sparse image takes on the host's disk (du), not its apparent size. */
  private static long allocatedBytes(Path image) throws IOException, InterruptedException {
    Process du = new ProcessBuilder("du", "-B1", "--", image.toString()).start();
    String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(du.waitFor()).isZero();
    return Long.parseLong(out.split("\\s+")[0]);
  }
}
