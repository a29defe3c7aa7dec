package dev.workcell.sandbox.testing;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.Network;
import dev.workcell.sandbox.docker.client.DockerStreamsClient;
import dev.workcell.sandbox.docker.client.WorkspaceDisks;
import dev.workcell.sandbox.runtime.SandboxLabels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Test-side Docker access and cleanup of everything the tests create (found by label, never by name). */
public final class TestDocker {

  /** workcell.sandbox.instance of the test profile. */
  public static final String INSTANCE = "test-sandbox-service";
  public static final String NETWORK = "workcell-sandbox-test";
  /** Marks resources a test creates by hand (foreign or unmanaged on purpose). */
  public static final String TEST_LABEL = "dev.workcell.test";
  /** workcell.sandbox.disk.root of the test profile. */
  public static final String DISK_ROOT = System.getenv().getOrDefault("WORKCELL_SANDBOX_DISK_ROOT", "/var/lib/workcell/disks");

  private TestDocker() {}

  public static DockerClient client() {
    String host = System.getenv().getOrDefault("DOCKER_HOST", "unix:///var/run/docker.sock");
    return DockerStreamsClient.create(host);
  }

  /** Kills a sandbox's celld from outside, as root: the workload itself cannot (decision 0007). */
  public static void killCelld(DockerClient docker, String container) throws InterruptedException {
    String exec = docker.execCreateCmd(container).withUser("0:0").withCmd("pkill", "-KILL", "-x", "celld")
        .withAttachStdout(true).withAttachStderr(true).exec().getId();
    docker.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>()).awaitCompletion(30, TimeUnit.SECONDS);
    Long code = docker.inspectExecCmd(exec).exec().getExitCodeLong();
    if (code == null || code != 0) {
      throw new IllegalStateException("pkill celld in " + container + " exited " + code);
    }
  }

  /** Removes every container, volume and network the tests made. */
  public static void cleanAll() {
    try (DockerClient docker = client()) {
      removeContainers(docker, Map.of(SandboxLabels.INSTANCE, INSTANCE));
      removeContainers(docker, Map.of(TEST_LABEL, "true"));
      removeVolumes(docker, SandboxLabels.INSTANCE + "=" + INSTANCE);
      removeVolumes(docker, TEST_LABEL + "=true");
      clearDisks(docker);
      for (Network network : docker.listNetworksCmd().withNameFilter(NETWORK).exec()) {
        if (NETWORK.equals(network.getName())) {
          docker.removeNetworkCmd(network.getId()).exec();
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The test instance's workspace disks (decision 0010), once their volumes are gone. */
  public static void clearDisks(DockerClient docker) {
    if (!Files.isDirectory(Path.of(DISK_ROOT, INSTANCE))) {
      return;
    }
    String image = System.getenv().getOrDefault("WORKCELL_SANDBOX_RUNTIME_IMAGE", "workcell/sandbox:dev");
    try {
      WorkspaceDisks.clearInstance(docker, DISK_ROOT, INSTANCE, image);
    } catch (RuntimeException e) {
      // Cleanup must not hide the run's results; a disk root that is not a shared mount fails the tests anyway.
      System.err.println("could not clear the test disks under " + DISK_ROOT + ": " + e.getMessage());
    }
  }

  private static void removeContainers(DockerClient docker, Map<String, String> labels) {
    List<Container> containers = docker.listContainersCmd().withShowAll(true).withLabelFilter(labels).exec();
    for (Container container : containers) {
      try {
        docker.removeContainerCmd(container.getId()).withForce(true).exec();
      } catch (NotFoundException gone) {
        // removed meanwhile
      }
    }
  }

  private static void removeVolumes(DockerClient docker, String label) {
    var volumes = docker.listVolumesCmd().withFilter("label", List.of(label)).exec().getVolumes();
    if (volumes == null) {
      return;
    }
    for (var volume : volumes) {
      try {
        docker.removeVolumeCmd(volume.getName()).exec();
      } catch (NotFoundException gone) {
        // removed meanwhile
      }
    }
  }
}
