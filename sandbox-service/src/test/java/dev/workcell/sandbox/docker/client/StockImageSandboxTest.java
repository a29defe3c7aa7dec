package dev.workcell.sandbox.docker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Image;
import com.github.dockerjava.api.model.Mount;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.FileEntry;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxNames;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TaskServiceFixture;
import dev.workcell.sandbox.testing.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Any image runs a sandbox: celld comes from its own read-only volume. The stock image is the
 * debootstrapped Debian base that bin/lib/sandbox-image.sh imports (no celld, no user 1000, no
 * /workspace); the images made here are removed afterwards.
 */
@QuarkusTest
class StockImageSandboxTest {

  private static final List<String> MADE_IMAGES = new ArrayList<>();

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Inject
  TaskServiceFixture taskService;

  @Inject
  SandboxSettings settings;

  @AfterAll
  static void removeMadeImages() {
    MADE_IMAGES.forEach(image -> dockerCli(true, "image", "rm", "-f", image));
  }

  @Test
  void aStockDebianImageWithoutCelldRunsCommandsAndFileTools() {
    String stock = stockImage();
    SandboxRef ref = sandboxes.newTask("stock-owner");
    try {
      taskService.policyImage(ref.taskId(), stock);
      assertThat(sandboxes.ensure(ref).state()).isEqualTo("running");
      assertThat(docker.inspectContainerCmd(SandboxNames.container(ref.taskId())).exec().getConfig().getImage()).isEqualTo(stock);

      sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "notes/hello.txt", "from a stock image\n", null, true));
      assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "notes/hello.txt")).content())
          .isEqualTo("from a stock image\n");
      FileList list = sandboxes.call(SandboxSubjects.FILES_LIST, new ListFiles(ref, "notes"));
      assertThat(list.entries()).extracting(FileEntry::name).containsExactly("hello.txt");

      CommandResult result = sandboxes.run(ref, "test -e /usr/local/bin/celld || echo no-celld-in-image; id -u; pwd; stat -c %u .;"
          + " cat notes/hello.txt; for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done | grep '^/opt/workcell/celld serve'");
      assertThat(result.exitCode()).as(result.stderr()).isZero();
      assertThat(result.stdout()).startsWith("no-celld-in-image\n1000\n/workspace\n1000\nfrom a stock image\n/opt/workcell/celld serve --root /workspace");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void nothingInTheSandboxCanReplaceCelld() {
    SandboxRef ref = sandboxes.newTask("celld-ro-owner");
    try {
      taskService.policyImage(ref.taskId(), stockImage());
      sandboxes.ensure(ref);
      CommandResult result = sandboxes.run(ref, "cp /bin/true /opt/workcell/celld 2>/dev/null || echo cannot-replace;"
          + " rm -f /opt/workcell/celld 2>/dev/null || echo cannot-remove; touch /opt/workcell/planted 2>/dev/null || echo cannot-plant;"
          + " mv /opt/workcell /tmp/moved 2>/dev/null || echo cannot-move; stat -c '%u %a' /opt/workcell/celld; grep ' /opt/workcell ' /proc/mounts");
      assertThat(result.stdout()).contains("cannot-replace\ncannot-remove\ncannot-plant\ncannot-move\n0 555\n");
      assertThat(result.stdout().lines().filter(line -> line.contains(" /opt/workcell ")).findFirst().orElseThrow()).contains(" ro,");

      InspectContainerResponse inspect = docker.inspectContainerCmd(SandboxNames.container(ref.taskId())).exec();
      var mount = inspect.getMounts().stream().filter(m -> "/opt/workcell".equals(m.getDestination().getPath())).findFirst().orElseThrow();
      assertThat(mount.getRW()).isFalse();
      assertThat(docker.inspectVolumeCmd(mount.getName()).exec().getLabels())
          .containsEntry(SandboxLabels.MANAGED, "true")
          .containsEntry(SandboxLabels.INSTANCE, TestDocker.INSTANCE)
          .containsEntry(SandboxLabels.CELLD, celldSha(settings.runtimeImage()))
          .doesNotContainKeys(SandboxLabels.TASK, SandboxLabels.HOME);
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void aSandboxWhoseCelldMountDriftedIsRecreatedAndItsWorkspaceKept() {
    SandboxRef ref = sandboxes.newTask("celld-drift-owner");
    try {
      String before = sandboxes.ensure(ref).containerId();
      sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "keep.txt", "kept", null, false));
      // The same container, except that its celld volume is writable.
      InspectContainerResponse inspect = docker.inspectContainerCmd(before).exec();
      docker.removeContainerCmd(before).withForce(true).exec();
      List<Mount> mounts = inspect.getHostConfig().getMounts().stream()
          .map(m -> "/opt/workcell".equals(m.getTarget()) ? new Mount().withType(m.getType()).withSource(m.getSource())
              .withTarget(m.getTarget()).withReadOnly(false) : m)
          .toList();
      String forged = docker.createContainerCmd(inspect.getConfig().getImage())
          .withName(SandboxNames.container(ref.taskId())).withLabels(inspect.getConfig().getLabels())
          .withUser(inspect.getConfig().getUser()).withWorkingDir("/workspace").withEntrypoint("sleep", "infinity")
          .withHostConfig(inspect.getHostConfig().withMounts(mounts)).exec().getId();

      String after = sandboxes.ensure(ref).containerId();
      assertThat(after).isNotEqualTo(forged);
      assertThat(docker.inspectContainerCmd(after).exec().getMounts())
          .filteredOn(m -> "/opt/workcell".equals(m.getDestination().getPath())).singleElement()
          .satisfies(m -> assertThat(m.getRW()).isFalse());
      assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "keep.txt")).content()).isEqualTo("kept");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  @Test
  void aNewCelldGetsItsOwnVolumeAndALabelThatLiesIsRefused() throws IOException {
    Path changed = Files.createTempFile("celld", "");
    try {
      // A different celld binary: the real one plus a trailing byte (ELF ignores it).
      String container = dockerCli(false, "create", "workcell/sandbox:dev").strip();
      try {
        dockerCli(false, "cp", container + ":/usr/local/bin/celld", changed.toString());
        Files.write(changed, new byte[] {0}, StandardOpenOption.APPEND);
        Files.setPosixFilePermissions(changed, PosixFilePermissions.fromString("r-xr-xr-x"));
        dockerCli(false, "cp", changed.toString(), container + ":/usr/local/bin/celld");
        String sha = sha256(Files.readAllBytes(changed));
        String image = "workcell/sandbox-test:celld-" + sha.substring(0, 12);
        String liar = "workcell/sandbox-test:liar-" + sha.substring(0, 12);
        commit(container, image, sha);
        commit(container, liar, "0".repeat(64));

        HelperContainer helpers = new HelperContainer(docker, TestDocker.INSTANCE);
        String current = new CelldVolume(docker, helpers, Optional.empty(), "workcell/sandbox:dev", TestDocker.INSTANCE).current().volume();
        CelldVolume.Source fresh = new CelldVolume(docker, helpers, Optional.of(image), "unused", TestDocker.INSTANCE).ensure();
        assertThat(fresh.volume()).isNotEqualTo(current).isEqualTo("workcell-test-sandbox-service-celld-" + sha.substring(0, 16));
        assertThat(docker.inspectVolumeCmd(fresh.volume()).exec().getLabels()).containsEntry(SandboxLabels.CELLD, sha);

        assertThatThrownBy(() -> new CelldVolume(docker, helpers, Optional.of(liar), "unused", TestDocker.INSTANCE).ensure())
            .isInstanceOfSatisfying(WorkcellException.class, e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
              assertThat(e.getMessage()).contains("does not hold a working celld");
            });
      } finally {
        dockerCli(true, "rm", "-f", container);
      }
    } finally {
      Files.deleteIfExists(changed);
    }
  }

  @Test
  void anImageWithoutAShellIsRefusedWithAClearError() {
    assertRefusedWithout("workcell/sandbox-test:no-shell", "has no usable /bin/sh",
        "/usr/bin/bash", "/usr/bin/dash", "/usr/bin/sh", "/bin/sh", "/bin/bash");
  }

  @Test
  void anImageWithoutSleepIsRefusedWithAClearError() {
    assertRefusedWithout("workcell/sandbox-test:no-sleep", "must provide sleep", "/usr/bin/sleep", "/bin/sleep");
  }

  /** The stock image less {@code removed}, committed as {@code image}: ensuring a sandbox of it fails with {@code message}. */
  private void assertRefusedWithout(String image, String message, String... removed) {
    List<String> create = new ArrayList<>(List.of("create", "--entrypoint", "rm", stockImage(), "-f"));
    create.addAll(List.of(removed));
    String container = dockerCli(false, create.toArray(String[]::new)).strip();
    try {
      dockerCli(false, "start", "-a", container);
      dockerCli(false, "commit", "--change", "LABEL " + TestDocker.TEST_LABEL + "=true", container, image);
      MADE_IMAGES.add(image);
    } finally {
      dockerCli(true, "rm", "-f", container);
    }
    SandboxRef ref = sandboxes.newTask("refused-image-owner");
    try {
      taskService.policyImage(ref.taskId(), image);
      WorkcellException failure = sandboxes.failure(SandboxSubjects.ENSURE, ref);
      assertThat(failure.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
      assertThat(failure.getMessage()).contains(message);
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }

  /**
   * The debootstrapped base bin/lib/sandbox-image.sh imports as workcell/base:<codename>, or the
   * base it was told to use instead (WORKCELL_SANDBOX_BASE, e.g. a registry's Debian).
   */
  private String stockImage() {
    List<Image> bases = docker.listImagesCmd().withLabelFilter(Map.of("dev.workcell.image", "base")).exec();
    String tag = bases.stream().flatMap(image -> image.getRepoTags() == null ? Stream.empty() : Arrays.stream(image.getRepoTags()))
        .filter(name -> name.startsWith("workcell/base:")).findFirst()
        .or(() -> Optional.ofNullable(System.getenv("WORKCELL_SANDBOX_BASE")).filter(base -> !base.isBlank()))
        .orElseThrow(() -> new AssertionError("no workcell/base:<codename> image: run ensure_sandbox_image (bin/lib/sandbox-image.sh)"));
    assertThat(docker.inspectImageCmd(tag).exec().getConfig().getLabels()).doesNotContainKey(CelldVolume.CELLD_SHA_LABEL);
    return tag;
  }

  private String celldSha(String image) {
    return docker.inspectImageCmd(image).exec().getConfig().getLabels().get(CelldVolume.CELLD_SHA_LABEL);
  }

  private static void commit(String container, String image, String celldSha) {
    dockerCli(false, "commit", "--change", "LABEL " + CelldVolume.CELLD_SHA_LABEL + "=" + celldSha,
        "--change", "LABEL " + TestDocker.TEST_LABEL + "=true", container, image);
    MADE_IMAGES.add(image);
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String dockerCli(boolean quiet, String... args) {
    try {
      List<String> command = new ArrayList<>(List.of("docker"));
      command.addAll(List.of(args));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      int code = process.waitFor();
      if (!quiet) {
        assertThat(code).as(String.join(" ", command) + ": " + output).isZero();
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
