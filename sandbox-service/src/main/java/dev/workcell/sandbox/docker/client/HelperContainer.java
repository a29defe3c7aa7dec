package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxLabels;
import io.quarkus.logging.Log;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One short-lived container from Workcell's own image for work a sandbox must not do itself: no
 * network (the closed-network probe excepted), read-only root, every capability dropped but the
 * ones named, no-new-privileges, small limits. Labelled with the instance (so tests' cleanup finds a
 * leftover) but not managed, so reconciliation never mistakes it for a sandbox.
 */
final class HelperContainer {

  private static final long MEMORY_BYTES = 64L << 20;
  private static final long PIDS = 16;
  private static final long TIMEOUT_SECONDS = 60;
  private static final int OUTPUT_LIMIT = 8192;

  private final DockerClient docker;
  private final String instance;

  HelperContainer(DockerClient docker, String instance) {
    this.docker = docker;
    this.instance = instance;
  }

  /** Runs {@code command} to its end and returns its exit code; the container is always removed. */
  int run(String purpose, String image, String user, List<String> command, List<Mount> mounts, List<Capability> capAdd) {
    return run(purpose, image, user, command, mounts, capAdd, "none");
  }

  /** {@link #run} on {@code network} instead of none: only for probing what that network lets through. */
  int run(String purpose, String image, String user, List<String> command, List<Mount> mounts, List<Capability> capAdd,
      String network) {
    HostConfig host = HostConfig.newHostConfig()
        .withNetworkMode(network)
        .withCapAdd(capAdd.toArray(Capability[]::new))
        .withSecurityOpts(SandboxHardening.SECURITY_OPT)
        .withMounts(mounts);
    return run(purpose, image, user, command, host, false).code();
  }

  /** What a helper whose output matters ended with: its exit code and the start of what it printed. */
  record Outcome(int code, String output) {}

  /**
   * Runs {@code command} as root with {@code host}'s capabilities, devices, security options and
   * mounts (no network, a read-only root, every other capability dropped and the small limits are set
   * here) and returns its exit code and output; the container is always removed.
   */
  Outcome runAsRoot(String purpose, String image, List<String> command, HostConfig host) {
    return run(purpose, image, "0:0", command, host.withNetworkMode("none"), true);
  }

  private Outcome run(String purpose, String image, String user, List<String> command, HostConfig host, boolean capture) {
    host.withReadonlyRootfs(true)
        .withCapDrop(Capability.ALL)
        .withMemory(MEMORY_BYTES)
        .withMemorySwap(MEMORY_BYTES)
        .withPidsLimit(PIDS);
    String id = docker.createContainerCmd(image)
        .withLabels(Map.of(SandboxLabels.INSTANCE, instance, SandboxLabels.HELPER, purpose))
        .withUser(user)
        .withEntrypoint(command)
        .withCmd(List.of())
        .withHostConfig(host)
        .exec().getId();
    try {
      docker.startContainerCmd(id).exec();
      Integer code = docker.waitContainerCmd(id).start().awaitStatusCode(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return new Outcome(code == null ? -1 : code, capture ? output(id) : "");
    } catch (RuntimeException e) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "helper container (" + purpose + ") failed: " + e.getMessage(), e);
    } finally {
      try {
        docker.removeContainerCmd(id).withForce(true).exec();
      } catch (RuntimeException e) {
        Log.warnf("could not remove helper container %s: %s", id, e.getMessage());
      }
    }
  }

  /** stdout and stderr of an ended helper, at most {@link #OUTPUT_LIMIT} characters. */
  private String output(String id) {
    StringBuilder out = new StringBuilder();
    try {
      docker.logContainerCmd(id).withStdOut(true).withStdErr(true).withFollowStream(false)
          .exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
              if (out.length() < OUTPUT_LIMIT) {
                out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
              }
            }
          }).awaitCompletion(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return out.length() > OUTPUT_LIMIT ? out.substring(0, OUTPUT_LIMIT) : out.toString();
  }
}
