package dev.workcell.sandbox.docker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import dev.workcell.sandbox.testing.TestDocker;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The disks' read-only view (decision 0021) on the real engine, image and disk root: with the option
 * a disk gets a clone under {@code <root>/.read-only/<instance>/<volume>/mnt} that is read-only (a write
 * there is EROFS, even as root) and shows what is written in the disk; removing the disk takes the
 * clone and its folder away, so no mount of it is left.
 */
class ReadOnlyDiskViewTest {

  private static final String INSTANCE = TestDocker.INSTANCE + "-view";
  private static final String VOLUME = "workcell-ws-view";
  private static final String IMAGE = System.getenv().getOrDefault("WORKCELL_SANDBOX_RUNTIME_IMAGE", "workcell/sandbox:dev");

  private final DockerClient docker = TestDocker.client();
  private final Path disk = Path.of(TestDocker.DISK_ROOT, INSTANCE, VOLUME, "mnt");
  private final Path view = Path.of(TestDocker.DISK_ROOT, ".read-only", INSTANCE, VOLUME, "mnt");

  @AfterEach
  void clear() throws IOException {
    WorkspaceDisks.clearInstance(docker, TestDocker.DISK_ROOT, INSTANCE, IMAGE);
    docker.close();
  }

  @Test
  void aDiskHasAReadOnlyCloneThatShowsItsFilesAndGoesWithIt() throws IOException {
    WorkspaceDisks disks = new WorkspaceDisks(docker, new HelperContainer(docker, INSTANCE), true, TestDocker.DISK_ROOT,
        INSTANCE, true);
    disks.create(VOLUME, 64L << 20, IMAGE);

    assertThat(mountOptions(view)).startsWith("ro,");
    assertThat(mountOptions(disk)).startsWith("rw,");
    Files.writeString(disk.resolve("data/written-in-the-disk.txt"), "hello");
    assertThat(view.resolve("data/written-in-the-disk.txt")).hasContent("hello");
    assertThatThrownBy(() -> Files.writeString(view.resolve("data/from-the-view.txt"), "no"))
        .isInstanceOf(FileSystemException.class).hasMessageContaining("Read-only file system");

    // A second ensure (a sandbox's next start) keeps the one clone; mount (sandbox-service's start) too.
    disks.create(VOLUME, 64L << 20, IMAGE);
    assertThat(disks.mount(List.of(VOLUME), IMAGE)).isTrue();
    assertThat(mountsUnder(view.getParent().getParent())).containsExactly(view.toString());

    disks.remove(VOLUME, IMAGE);
    assertThat(mountsUnder(view.getParent().getParent())).isEmpty();
    assertThat(mountsUnder(disk.getParent().getParent())).isEmpty();
    assertThat(view.getParent()).doesNotExist();
  }

  @Test
  void withoutTheOptionThereIsNoView() {
    WorkspaceDisks disks = new WorkspaceDisks(docker, new HelperContainer(docker, INSTANCE), true, TestDocker.DISK_ROOT,
        INSTANCE, false);
    disks.create(VOLUME, 64L << 20, IMAGE);
    assertThat(mountOptions(disk)).startsWith("rw,");
    assertThat(view.getParent()).doesNotExist();
  }

  /** The per-mount options of the mount at {@code point} in the host's (this JVM's) namespace, or "". */
  private static String mountOptions(Path point) {
    return mountinfo().stream().map(line -> line.split(" ")).filter(f -> f[4].equals(point.toString()))
        .map(f -> f[5]).findFirst().orElse("");
  }

  private static List<String> mountsUnder(Path folder) {
    return mountinfo().stream().map(line -> line.split(" ")[4]).filter(p -> p.startsWith(folder + "/")).toList();
  }

  private static List<String> mountinfo() {
    try {
      return Files.readAllLines(Path.of("/proc/self/mountinfo"));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
